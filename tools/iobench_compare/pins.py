"""The versions of the Python packages iobench-compare is tested with: tools/constraints.txt, the one list of
them (pyproject.toml reads it as the package's dependencies, the launcher its package names).

Pinned because they decide numbers: SciPy's Mann-Whitney U gives the gate's p-values. A Python with other
versions still runs the tool; the gate says so in a note (differences()).
"""

from __future__ import annotations

import importlib.metadata
import os
import re

# Next to the package in a source checkout (tools/constraints.txt); an installed package has the same pins in
# its metadata (pyproject.toml read the file when it was built).
CONSTRAINTS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "constraints.txt")

# The packages whose versions decide what the gate says (the tests and the medians).
DECIDING = ("numpy", "scipy")

_PIN = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;]+)\s*(;.*)?$")


def parse(lines) -> dict[str, str]:
    """Package name -> pinned version, from requirement lines (`name==version[; marker]`; comments and blank
    lines skipped). A line that pins nothing raises ValueError: the file is the pins, nothing else."""
    found = {}
    for line in lines:
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        match = _PIN.match(text)
        if match is None:
            raise ValueError(f"{text!r}: not name==version")
        found[match.group(1)] = match.group(2)
    return found


def pinned() -> dict[str, str]:
    """The pinned versions: tools/constraints.txt in a source checkout, else the installed package's metadata;
    {} when neither says."""
    if os.path.exists(CONSTRAINTS):
        with open(CONSTRAINTS, encoding="utf-8") as f:
            return parse(f)
    try:
        requires = importlib.metadata.requires("iobench-compare") or []
    except importlib.metadata.PackageNotFoundError:
        return {}
    return parse(re.sub(r"\s*\(([^)]*)\)", r"\1", r) for r in requires)


def installed(name: str) -> str | None:
    """The version of package `name` this Python has, or None."""
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def differences(names=DECIDING, versions=installed) -> list[str]:
    """For each package of `names` whose version here is not the pinned one: "scipy 1.13.0 (tested: 1.10.1)"."""
    pins = pinned()
    found = []
    for name in names:
        want, have = pins.get(name), versions(name)
        if want is not None and have is not None and have != want:
            found.append(f"{name} {have} (tested: {want})")
    return found
