"""The history page's charts, written as SVG text directly.

A history at a team's scale has hundreds of charts of thousands of runs: Matplotlib took about a
second for each (its artists, ticks and text measured in Python), over a minute for a page of 50
benchmarks (docs/report.md, History). These charts are simple (lines over the runs, a band, dashed
lines), so they are written here: polylines, a path, lines and text, a few milliseconds each.

A chart stacks panels over the runs in order, labelled by their labels: the median time with its
95 % interval as a band; a per-call row's p50, p99 and p99.9 per call (log scale); the throughput;
instructions per item. Each change point is a dashed red line between the last run before it and
the first after, with the change; each part's level dotted. Elements carry ids: <anchor>-time,
-interval, -p50, -p99, -p999, -throughput, -instructions, -change-N.
"""

from __future__ import annotations

import html
import math

from .changepoints import INSTRUCTIONS, TIME, Change, points
from .history import Series

# Colours: Matplotlib's first ones, as the comparison report's charts.
TIME_COLOR = "#1f77b4"
INSTRUCTIONS_COLOR = "#ff7f0e"
CHANGE_COLOR = "#d62728"
THROUGHPUT_COLOR = "#17becf"
LEVEL_COLOR = "#59636e"
GRID_COLOR = "#d0d7de"
VALGRIND_COLOR = "#8c959f"

# The per-call percentiles drawn: (Result attribute, label, colour).
PERCENTILES = (("p50", "p50", "#2ca02c"), ("p99", "p99", "#9467bd"), ("p999", "p99.9", "#8c564b"))

# Above this many runs the lines have no marker per run.
MARKERS_UP_TO = 60

# The geometry, in pixels: width, left and right margins, a panel's plot height, the room above each panel
# (its legend), the title's room and the bottom's (the run labels).
WIDTH, LEFT, RIGHT, PLOT, ABOVE, TITLE, BOTTOM = 700, 72, 16, 120, 30, 26, 80


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def time_unit(values: list[float]) -> tuple[float, str]:
    """(seconds per unit, unit) for times up to max(values)."""
    top = max(values, default=0.0)
    for scale, unit in ((1.0, "s"), (1e-3, "ms"), (1e-6, "us")):
        if top >= scale:
            return scale, unit
    return 1e-9, "ns"


def rate_unit(values: list[float], unit: str) -> tuple[float, str]:
    """(factor, unit with its prefix) for rates up to max(values)."""
    top = max(values, default=0.0)
    short = "B/s" if unit == "bytes/s" else " " + unit
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if top >= scale:
            return scale, f"{prefix}{short}".strip()
    return 1.0, short.strip()


def throughput(result) -> tuple[float, str] | None:
    """(value, unit) of a result's throughput: bytes per second where measured, else items per second."""
    if result is None or not result.ok:
        return None
    if result.bytes_per_second:
        return result.bytes_per_second, "bytes/s"
    if result.items_per_second:
        return result.items_per_second, "items/s"
    return None


def panels(series: Series, benchmark: str) -> list[str]:
    """The panels of a benchmark's chart, top to bottom: "time", "latency", "throughput", "instructions", those
    with a value in some run (under valgrind the instructions first: they are the figure)."""
    results = series.benchmarks.get(benchmark, [])
    found = []
    if points(series, benchmark, TIME):
        found.append("time")
    if any(r is not None and r.ok and any(getattr(r, a) for a, _, _ in PERCENTILES) for r in results):
        found.append("latency")
    if any(throughput(r) for r in results):
        found.append("throughput")
    if points(series, benchmark, INSTRUCTIONS):
        found.insert(len(found) if series.real_times else 0, "instructions")
    return found


def _ticks(low: float, high: float, log: bool) -> list[float]:
    """About 4 round values between low and high (powers of ten on a log scale)."""
    if log:
        decades = [10.0 ** k for k in range(math.ceil(math.log10(low)), math.floor(math.log10(high)) + 1)]
        if len(decades) >= 2:
            return decades
    raw = (high - low) / 4 or 1.0
    step = 10 ** math.floor(math.log10(raw))
    step *= next(m for m in (1, 2, 2.5, 5, 10) if m * step >= raw)
    first = math.ceil(low / step) * step
    return [first + i * step for i in range(int((high - first) / step) + 1)]


def _number(value: float) -> str:
    return f"{value:.4g}"


class _Panel:
    """One panel: maps (run position, value) to pixels and collects its SVG."""

    def __init__(self, top: float, n: int, values: list[float], log: bool):
        self.top, self.n, self.log = top, n, log
        low, high = min(values), max(values)
        if log:
            low, high = low / 1.5, high * 2.5
        else:
            pad = (high - low) * 0.1 or abs(high) * 0.05 or 1.0
            low, high = (max(0.0, low - pad) if low >= 0 else low - pad), high + pad * 2.5
        self.low, self.high = low, high
        self.out: list[str] = []

    def x(self, position: float) -> float:
        return LEFT + (position + 0.5) / self.n * (WIDTH - LEFT - RIGHT)

    def y(self, value: float) -> float:
        if self.log:
            fraction = (math.log(value) - math.log(self.low)) / (math.log(self.high) - math.log(self.low))
        else:
            fraction = (value - self.low) / (self.high - self.low)
        return self.top + PLOT * (1 - fraction)

    def frame(self, ylabel: str) -> None:
        for tick in _ticks(self.low, self.high, self.log):
            y = self.y(tick)
            if self.top - 0.5 <= y <= self.top + PLOT + 0.5:
                self.out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
                                f'stroke="{GRID_COLOR}" stroke-width="0.6"/>'
                                f'<text x="{LEFT - 4}" y="{y + 3:.1f}" text-anchor="end">{_number(tick)}</text>')
        middle = self.top + PLOT / 2
        self.out.append(f'<text x="14" y="{middle:.1f}" text-anchor="middle" '
                        f'transform="rotate(-90 14 {middle:.1f})">{_e(ylabel)}</text>')
        self.out.append(f'<rect x="{LEFT}" y="{self.top}" width="{WIDTH - LEFT - RIGHT}" height="{PLOT}" '
                        'fill="none" stroke="#57606a" stroke-width="0.8"/>')

    def line(self, gid: str, found: list[tuple[int, float]], color: str, marker: bool, label: str) -> None:
        coordinates = " ".join(f"{self.x(x):.1f},{self.y(v):.1f}" for x, v in found)
        parts = [f'<g id="{gid}"><polyline points="{coordinates}" fill="none" stroke="{color}" '
                 'stroke-width="2" stroke-linejoin="round"/>']
        if marker:
            parts += [f'<circle cx="{self.x(x):.1f}" cy="{self.y(v):.1f}" r="3" fill="{color}"/>' for x, v in found]
        self.out.append("".join(parts) + "</g>")
        self.legend(label, color)

    def band(self, gid: str, found: list[tuple[int, float, float]], color: str, label: str) -> None:
        upper = " L".join(f"{self.x(x):.1f},{self.y(hi):.1f}" for x, _, hi in found)
        lower = " L".join(f"{self.x(x):.1f},{self.y(lo):.1f}" for x, lo, _ in reversed(found))
        self.out.append(f'<g id="{gid}"><path d="M{upper} L{lower} Z" fill="{color}" fill-opacity="0.2"/></g>')
        self.legend(label, color, opacity=0.3)

    _legends: int = 0

    def legend(self, label: str, color: str, opacity: float = 1.0) -> None:
        x = LEFT + 4 + 205 * (self._legends % 3)
        y = self.top - 8 - 13 * (self._legends // 3)
        self._legends += 1
        self.out.append(f'<rect x="{x}" y="{y - 7}" width="14" height="6" fill="{color}" fill-opacity="{opacity}"/>'
                        f'<text x="{x + 18}" y="{y}">{_e(label)}</text>')

    def changes(self, gid: str, steps: list[Change], first: int, last: int, scale: float, number: int) -> int:
        starts = [first] + [c.first_after for c in steps]
        ends = [c.last_before for c in steps] + [last]
        levels = [c.before for c in steps] + ([steps[-1].after] if steps else [])
        for start, end, level in zip(starts, ends, levels):
            y = self.y(level / scale)
            self.out.append(f'<line x1="{self.x(start - 0.3):.1f}" x2="{self.x(end + 0.3):.1f}" y1="{y:.1f}" '
                            f'y2="{y:.1f}" stroke="{LEVEL_COLOR}" stroke-width="1.2" stroke-dasharray="1.5,2.5"/>')
        for change in steps:
            number += 1
            x = self.x((change.last_before + change.first_after) / 2)
            self.out.append(f'<g id="{gid}-change-{number}"><line x1="{x:.1f}" x2="{x:.1f}" y1="{self.top}" '
                            f'y2="{self.top + PLOT}" stroke="{CHANGE_COLOR}" stroke-width="2" '
                            f'stroke-dasharray="6,3"/><text x="{x + 3:.1f}" y="{self.top + 12}" '
                            f'fill="{CHANGE_COLOR}">{change.change * 100:+.1f}%</text></g>')
        return number


# What the chart's title calls each panel.
PANEL_TITLES = {"time": "median time per run", "latency": "p50, p99, p99.9 per call", "throughput": "throughput",
                "instructions": "instructions per item"}


class _Chart:
    """One benchmark's chart being drawn: what its panels share, and the change points numbered so far."""

    def __init__(self, series: Series, gid: str, benchmark: str, found_changes: dict[str, list[Change]]):
        """Starts the chart of `benchmark` in `series` (see draw()), with no change point numbered yet."""
        self.series, self.gid, self.benchmark, self.found_changes = series, gid, benchmark, found_changes
        self.n = len(series.runs)
        self.marker = self.n <= MARKERS_UP_TO
        self.results = series.benchmarks[benchmark]
        self.changed = 0

    def panel(self, name: str, top: float) -> _Panel:
        """Panel `name` (see panels()) drawn from `top` down."""
        draw_panel = {"time": self.time_panel, "latency": self.latency_panel,
                      "throughput": self.throughput_panel}.get(name, self.instructions_panel)
        return draw_panel(top)

    def time_panel(self, top: float) -> _Panel:
        """The time panel: the median time of each run, its 95 % interval and change points (none under valgrind)."""
        series, gid, results, marker = self.series, self.gid, self.results, self.marker
        found = points(series, self.benchmark, TIME)
        scale, unit = time_unit([v for _, v in found])
        band = [(x, ci[0] / scale, ci[1] / scale) for x, _ in found for ci in [results[x].ci] if ci is not None]
        p = _Panel(top, self.n, [v / scale for _, v in found] + [b for _, lo, hi in band for b in (lo, hi)], False)
        p.frame(f"time ({unit})")
        if band:
            p.band(f"{gid}-interval", band, TIME_COLOR, "95% interval of the median")
        if series.real_times:
            p.line(f"{gid}-time", [(x, v / scale) for x, v in found], TIME_COLOR, marker,
                   "median time of a run")
            self.changed = p.changes(gid, self.found_changes.get(TIME, []), found[0][0], found[-1][0], scale,
                                     self.changed)
        else:
            p.line(f"{gid}-time", [(x, v / scale) for x, v in found], VALGRIND_COLOR, marker,
                   "time under valgrind (~50x the real one; no change points)")
        return p

    def latency_panel(self, top: float) -> _Panel:
        """The per-call percentiles (p50, p99, p99.9) of each run, on a log scale."""
        results = self.results
        every = [getattr(r, a) for r in results if r is not None and r.ok for a, _, _ in PERCENTILES
                 if getattr(r, a)]
        scale, unit = time_unit(every)
        p = _Panel(top, self.n, [v / scale for v in every], True)
        p.frame(f"per call ({unit})")
        for attribute, label, color in PERCENTILES:
            found = [(x, getattr(r, attribute) / scale) for x, r in enumerate(results)
                     if r is not None and r.ok and getattr(r, attribute)]
            if found:
                p.line(f"{self.gid}-{attribute}", found, color, self.marker, f"{label} per call")
        return p

    def throughput_panel(self, top: float) -> _Panel:
        """The throughput of each run, in the unit most runs have (bytes or items per second)."""
        rates = [(x, t) for x, r in enumerate(self.results) for t in [throughput(r)] if t]
        units = [u for _, (_, u) in rates]
        unit = max(set(units), key=units.count)
        found = [(x, v) for x, (v, u) in rates if u == unit]
        scale, label = rate_unit([v for _, v in found], unit)
        p = _Panel(top, self.n, [v / scale for _, v in found], False)
        p.frame(label)
        p.line(f"{self.gid}-throughput", [(x, v / scale) for x, v in found], THROUGHPUT_COLOR, self.marker,
               f"throughput ({unit})")
        return p

    def instructions_panel(self, top: float) -> _Panel:
        """The instructions per item of each run, and their change points."""
        found = points(self.series, self.benchmark, INSTRUCTIONS)
        p = _Panel(top, self.n, [v for _, v in found], False)
        p.frame("instructions / item")
        p.line(f"{self.gid}-instructions", found, INSTRUCTIONS_COLOR, self.marker, "instructions per item")
        self.changed = p.changes(self.gid, self.found_changes.get(INSTRUCTIONS, []), found[0][0], found[-1][0], 1.0,
                                 self.changed)
        return p


def _run_labels(series: Series, top: float) -> list[str]:
    """The runs' labels under the last panel (whose bottom is at `top`), at most about 25, and the axis's title."""
    n = len(series.runs)
    out = []
    step = max(1, (n + 24) // 25)
    axis = _Panel(top - PLOT, n, [0.0, 1.0], False)
    for k in range(0, n, step):
        x = axis.x(k)
        out.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + 4}" stroke="#57606a"/>'
                   f'<text x="{x:.1f}" y="{top + 14}" text-anchor="end" transform="rotate(-40 {x:.1f} {top + 14})">'
                   f"{_e(series.runs[k].label[:24])}</text>")
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{top + BOTTOM - 6}" text-anchor="middle">runs in the '
               "order of their dates, by label (the project's commit)</text>")
    return out


def draw(series: Series, gid: str, benchmark: str, found_changes: dict[str, list[Change]]) -> tuple[str, str]:
    """(title, SVG element) of one benchmark's chart in a series; `gid` its id's stem, `found_changes` its change
    points by figure (TIME, INSTRUCTIONS)."""
    shown = panels(series, benchmark)
    chart = _Chart(series, gid, benchmark, found_changes)
    out: list[str] = []
    top = TITLE
    for panel in shown:
        top += ABOVE
        out += chart.panel(panel, top).out
        top += PLOT
    out += _run_labels(series, top)
    title = f"{benchmark}: " + ", ".join(PANEL_TITLES[p] for p in shown)
    height = top + BOTTOM
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="10" fill="#24292f">'
           f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>'
           f'<text x="{WIDTH / 2}" y="16" text-anchor="middle" font-size="12">{_e(title)}</text>'
           + "".join(out) + "</svg>")
    return title, svg
