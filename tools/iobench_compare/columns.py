"""The columns of iobench's summary tables, one entry each, in the summary's order.

Read from spec/summary_columns.json, this package's data: the file that says what the columns are,
from which iobench's build also generates its console summary's table (generated/summary_columns.hpp,
cmake/GenerateSummaryColumns.cmake), and which says what each field, format and condition means. A
new column is one entry there. iobench-compare shows the columns marked `compare` under the same
headers: its counter columns (counters.py) and its time, interval, throughput, cv, x fastest and
cold/warm columns (render.py). Its tables order their columns their own way and add their own
(file, ratio, significance, --counters).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from . import spec as specs


@dataclass(frozen=True)
class SummaryColumn:
    """One column: its header, layout (`width` the least, `grows` to its longest text), the unit of
    its value, what a cell shows (`field`, of `counter` where one is named) and how it is written
    (`format`: a kind of number_format.FORMATS, "interval" or "text"), the rule that flags a cell with
    "!", the text on a reference row, which tables show it, whether iobench-compare does, and what
    its value is (`description`, in --counters' help)."""

    key: str
    header: str
    align: str
    width: int
    grows: bool
    unit: str | None
    field: str
    counter: str | None
    format: str
    flag: str | None
    reference: str | None
    shown: str
    compare: bool
    description: str


def load_spec() -> dict:
    """The spec of the summary's columns (spec/summary_columns.json, installed with the package)."""
    return specs.load("summary_columns.json")


def _columns(spec: dict) -> tuple[SummaryColumn, ...]:
    """The spec's columns, in order; ValueError naming the column whose members are not the dataclass's."""
    names = {f.name for f in fields(SummaryColumn)}
    out = []
    for entry in spec["columns"]:
        if set(entry) != names:
            raise ValueError(f"spec/summary_columns.json: column {entry.get('key')!r} has the members "
                             f"{sorted(entry)}, not {sorted(names)}")
        out.append(SummaryColumn(**entry))
    return tuple(out)


SPEC = load_spec()
SUMMARY_COLUMNS = _columns(SPEC)
BY_KEY = {c.key: c for c in SUMMARY_COLUMNS}


def header(key: str) -> str:
    """The header of the summary's column `key` (KeyError if there is none)."""
    return BY_KEY[key].header
