"""The specs, this package's data (spec/*.json): each the one file that says what its facts are, from which
iobench's build also generates its C++ headers (cmake/Generate*.cmake): the summary's columns, the report rules,
the OS counters, the results format."""

from __future__ import annotations

import json
from importlib import resources


def load(name: str) -> dict:
    """The spec spec/`name` (installed with the package), parsed."""
    return json.loads(resources.files(__package__).joinpath("spec").joinpath(name).read_text(encoding="utf-8"))
