"""Charts of a Comparison with Matplotlib (Agg backend, no display needed).

Per workload a grouped bar chart of throughput, methods x files (horizontal bars,
each labelled with its value, so that a slow method is still readable next to a
fast one); a workload's limit row is drawn as a dashed reference line, not a bar.
Per parameter sweep (`/buf:<bytes>` in the names) a line chart of throughput
against the parameter on a log scale, one line per method and file, as the
file-reading seed's chart; against threads a chart per sink, at most 8 lines each
(threads_charts). Charts are written as PNG and SVG (--plot) or inlined
as SVG in the HTML report; the SVG carries no date, so regenerating it from the
same JSON gives the same bytes.
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from .compare import Cell, Comparison, Row, Workload, median_interval, sweeps  # noqa: E402
from .number_format import format_count  # noqa: E402
from .output import check_directory, check_file, write_file  # noqa: E402
from .render import STATUS_WORDS, format_throughput  # noqa: E402

# Parameters by their name in the rows ("buffer_size") or, in older files, in the benchmark name ("buf").
_PARAM_TITLES = {"buf": "buffer size", "buffer_size": "buffer size", "threads": "threads"}
_BYTE_PARAMS = {"buf", "buffer_size"}
_PARAM_STEMS = {"buffer_size": "buf"}  # file names stay <workload>-buf.png
_STATUS_COLORS = {"failed": "#c0392b", "invalid": "#c0392b", "skipped": "#7f7f7f"}


@dataclass
class Chart:
    """One chart: a file stem ("ints_out", "file_read-buf"), a title and its figure."""

    stem: str
    title: str
    figure: object


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def _rate(cell: Cell) -> float | None:
    """Throughput in bytes/s, or items/s when the benchmark has no byte count."""
    if not cell.ok:
        return None
    return cell.bytes_per_second if cell.bytes_per_second is not None else cell.items_per_second


def _rate_interval(cell: Cell) -> tuple[float, float] | None:
    """The 95% interval of the median throughput (the same order statistics as the time's), or None."""
    if not cell.ok:
        return None
    kind = "bytes" if cell.bytes_per_second is not None else "items"
    return median_interval(cell.rates.get(kind, []))


# Text sizes in the charts (points); the HTML report shows the SVG at about its own size.
VALUE_FONT = 10
LABEL_FONT = 11


def _unit(rows: list[Row]) -> tuple[float, str, bool]:
    """Scale and axis label for a chart's rates, from the largest one; and whether they are bytes."""
    cells = [c for r in rows for c in r.cells if _rate(c) is not None]
    in_bytes = any(c.bytes_per_second is not None for c in cells)
    top = max((_rate(c) for c in cells), default=0.0)
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")):
        if top >= scale:
            break
    what = f"{prefix}B/s" if in_bytes else f"{prefix} items/s".strip()
    return scale, f"throughput ({what}, median; higher is better)", in_bytes


def _colors() -> list[str]:
    return plt.rcParams["axes.prop_cycle"].by_key()["color"]


def _rate_text(rate: float, in_bytes: bool) -> str:
    return format_throughput(rate) if in_bytes else f"{format_count(rate)}/s"


def _clear_of_lines(ax, labels, lines: list[float]) -> None:
    """Moves each value label that a vertical reference line crosses to just after that line."""
    if not labels or not lines:
        return
    renderer = ax.figure.canvas.get_renderer()
    to_data = ax.transData.inverted()
    pad = 4  # pixels
    for text in labels:
        for _ in range(len(lines)):
            box = text.get_window_extent(renderer)
            crossed = [x for x in lines if box.x0 - pad <= ax.transData.transform((x, 0))[0] <= box.x1 + pad]
            if not crossed:
                break
            beyond = ax.transData.transform((max(crossed), 0))[0] + pad
            text.set_x(to_data.transform((beyond, 0))[0])


def _bar(ax, cell: Cell, y: float, bar: float, color: str, scale: float, in_bytes: bool):
    """Draws a cell's bar at `y` with its 95% interval; returns its value label (None without a rate: a status word)."""
    rate = _rate(cell)
    if rate is None:
        if cell.status in STATUS_WORDS:
            ax.text(0, y, f" {STATUS_WORDS[cell.status]}", va="center", ha="left", fontsize=VALUE_FONT,
                    color=_STATUS_COLORS[cell.status])
        return None
    interval = _rate_interval(cell)
    xerr = None
    if interval is not None:
        xerr = [[max(0.0, rate - interval[0]) / scale], [max(0.0, interval[1] - rate) / scale]]
    ax.barh(y, rate / scale, height=bar, color=color, xerr=xerr,
            error_kw={"ecolor": "#222222", "elinewidth": 1, "capsize": 3})
    end = (interval[1] if interval is not None else rate) / scale
    return ax.text(end, y, " " + _rate_text(rate, in_bytes), va="center", ha="left", fontsize=VALUE_FONT)


def _limit_lines(ax, limits: list[Row], files, colors: list[str], scale: float,
                 in_bytes: bool) -> tuple[list[Line2D], list[float]]:
    """Draws the limit rows as vertical lines, a line per file; returns their legend entries and x positions."""
    handles, lines = [], []
    for n, row in enumerate(limits):  # limit dashed, limit_overwrite (after it) dotted, memcpy dash-dotted
        style = "-." if row.method == "memcpy" else "--" if n == 0 else ":"
        for i, f in enumerate(files):
            rate = _rate(row.cells[i])
            if rate is None:
                continue
            ax.axvline(rate / scale, color=colors[i % len(colors)], linestyle=style, linewidth=1.2)
            lines.append(rate / scale)
            label = row.method if len(files) == 1 else f"{row.method} ({f.label})"
            handles.append(Line2D([], [], color=colors[i % len(colors)], linestyle=style,
                                  label=f"{label}: {_rate_text(rate, in_bytes)}"))
    return handles, lines


def bar_chart(comparison: Comparison, workload: Workload) -> Chart:
    """Grouped horizontal bars: one group per method (top to bottom in table order), one bar per file, each
    with the 95% interval of its median as an error bar and its value as a label clear of the limit lines."""
    files = comparison.files
    methods = [r for r in workload.rows if not r.is_limit]
    limits = [r for r in workload.rows if r.is_limit]
    scale, xlabel, in_bytes = _unit(workload.rows)
    colors = _colors()
    per_bar = 0.3 if len(files) > 1 else 0.36
    height = max(2.6, per_bar * max(1, len(methods)) * len(files) + 0.3 * len(methods) + 1.4)
    fig, ax = plt.subplots(figsize=(7.0, height))
    bar = 0.8 / len(files)
    highs = [(_rate_interval(c) or (0.0, _rate(c) or 0.0))[1] for r in workload.rows for c in r.cells]
    top = max([_rate(c) or 0.0 for r in workload.rows for c in r.cells] + highs, default=0.0) / scale
    labels = []
    for k, row in enumerate(methods):
        for i in range(len(files)):
            label = _bar(ax, row.cells[i], k - 0.4 + bar * (i + 0.5), bar, colors[i % len(colors)], scale, in_bytes)
            if label is not None:
                labels.append(label)
    # Legend from patches (a file whose every benchmark failed has no bar to take a colour from); one file
    # needs none. The limit lines add theirs.
    handles = [Patch(color=colors[i % len(colors)], label=f.label) for i, f in enumerate(files)]
    if len(files) == 1:
        handles = []
    limit_handles, lines = _limit_lines(ax, limits, files, colors, scale, in_bytes)
    handles += limit_handles
    ax.set_yticks(range(len(methods)))
    ax.set_yticklabels([r.key for r in methods], fontsize=LABEL_FONT)
    ax.tick_params(axis="x", labelsize=VALUE_FONT)
    ax.set_ylim(max(len(methods), 1) - 0.5, -0.5)  # the first method on top, as in the table
    right = max([top] + lines)
    ax.set_xlim(0, right * 1.3 if right > 0 else 1)  # room for the value labels
    ax.set_xlabel(xlabel, fontsize=LABEL_FONT)
    ax.set_title(f"{workload.title}: throughput by method", fontsize=LABEL_FONT + 1)
    ax.grid(axis="x", alpha=0.3)
    ax.set_axisbelow(True)
    if handles:
        below = 0.62 / (height * (fig.subplotpars.top - fig.subplotpars.bottom))  # under the axis title
        ax.legend(handles=handles, fontsize=VALUE_FONT, loc="upper center", bbox_to_anchor=(0.5, -below), ncol=2,
                  frameon=False)
    _clear_of_lines(ax, labels, lines)
    widest = max([t.get_position()[0] for t in labels], default=0.0)
    if labels and widest > ax.get_xlim()[1] * 0.8:
        ax.set_xlim(0, widest * 1.25)
    return Chart(_safe(workload.title), f"{workload.title}: throughput by method", fig)


def sweep_chart(comparison: Comparison, workload: Workload, param: str, rows: list[Row]) -> Chart:
    """Throughput against a numeric parameter (log2 x axis): one line per method (and file)."""
    files = comparison.files
    scale, ylabel, in_bytes = _unit(rows)
    # A line is a method with its other parameters fixed, in one file (threads:
    # threads_charts, a chart per sink).
    lines: dict[str, list[Row]] = {}
    for row in rows:
        others = "/".join(f"{k}:{v}" for k, v in row.params if k != param)
        lines.setdefault(row.method + ("/" + others if others else ""), []).append(row)
    fig, ax = plt.subplots(figsize=(7.0, 5.0))
    markers = "osD^vP*X"
    styles = ["-", "--", ":", "-."]
    colors = _colors()
    for m, (name, line_rows) in enumerate(lines.items()):
        line_rows = sorted(line_rows, key=lambda r: int(dict(r.params)[param]))
        color = colors[m % len(colors)]
        for i, f in enumerate(files):
            points = [(int(dict(r.params)[param]), _rate(r.cells[i])) for r in line_rows]
            points = [(x, y / scale) for x, y in points if y is not None]
            if not points:
                continue
            label = name if len(files) == 1 else f"{name} ({f.label})"
            style = styles[i % len(styles)]
            ax.plot([p[0] for p in points], [p[1] for p in points], label=label, color=color,
                    linestyle=style, marker=markers[i % len(markers)])
    for row in (r for r in workload.rows if r.is_limit):
        for i, f in enumerate(files):
            rate = _rate(row.cells[i])
            if rate is not None:
                label = row.method if len(files) == 1 else f"{row.method} ({f.label})"
                ax.axhline(rate / scale, color="black", linestyle=styles[i % len(styles)], linewidth=1,
                           label=f"{label}: {_rate_text(rate, in_bytes)}")
    ax.set_xscale("log", base=2)
    values = sorted({int(dict(r.params)[param]) for r in rows})
    ax.set_xticks(values)
    ax.set_xticklabels([_size(v) if param in _BYTE_PARAMS else str(v) for v in values])
    ax.minorticks_off()
    ax.tick_params(labelsize=VALUE_FONT)
    ax.set_xlabel(_PARAM_TITLES.get(param, param) + (" (bytes)" if param in _BYTE_PARAMS else "") + ", log scale",
                  fontsize=LABEL_FONT)
    ax.set_ylabel(ylabel, fontsize=VALUE_FONT)
    ax.set_ylim(bottom=0)
    title = f"{workload.title}: throughput against {_PARAM_TITLES.get(param, param)}"
    ax.set_title(title, fontsize=LABEL_FONT + 1)
    ax.grid(alpha=0.3)
    below = 0.62 / (5.0 * (fig.subplotpars.top - fig.subplotpars.bottom))  # under the axis title
    ax.legend(fontsize=VALUE_FONT - 1, loc="upper center", bbox_to_anchor=(0.5, -below), ncol=2, frameon=False)
    return Chart(f"{_safe(workload.title)}-{_safe(_PARAM_STEMS.get(param, param))}", title, fig)


# The per-call latency counters a percentile plot shows, left to right, with their labels.
_PERCENTILES = (("latency_p50_ns", "p50"), ("latency_p90_ns", "p90"), ("latency_p99_ns", "p99"),
                ("latency_p999_ns", "p99.9"), ("latency_max_ns", "max"))


def percentile_chart(comparison: Comparison, workload: Workload) -> Chart | None:
    """One call's time at each percentile (p50 .. max, log y axis), one line per per-call row (and
    file), as HdrHistogram's and fio's latency plots are read; None when no row of the workload has them."""
    files = comparison.files
    fig, ax = plt.subplots(figsize=(7.0, 5.0))
    styles = ["-", "--", ":", "-."]
    colors = _colors()
    drawn = 0
    for m, row in enumerate(r for r in workload.rows if not r.is_limit):
        for i, f in enumerate(files):
            counters = row.cells[i].counters if row.cells[i].status == "ok" else {}
            points = [(x, counters[key]) for x, (key, _) in enumerate(_PERCENTILES) if counters.get(key, 0) > 0]
            if len(points) < 2:
                continue
            label = row.key if len(files) == 1 else f"{row.key} ({f.label})"
            ax.plot([p[0] for p in points], [p[1] for p in points], label=label, color=colors[m % len(colors)],
                    linestyle=styles[i % len(styles)], marker="o")
            drawn += 1
    if drawn == 0:
        plt.close(fig)
        return None
    ax.set_yscale("log")
    ax.set_xticks(range(len(_PERCENTILES)))
    ax.set_xticklabels([label for _, label in _PERCENTILES])
    ax.tick_params(labelsize=VALUE_FONT)
    ax.set_xlabel("percentile of the calls (each call timed; the timing's own cost included)", fontsize=LABEL_FONT)
    ax.set_ylabel("time of one call (ns), log scale", fontsize=VALUE_FONT)
    title = f"{workload.title}: one call's time by percentile"
    ax.set_title(title, fontsize=LABEL_FONT + 1)
    ax.grid(alpha=0.3, which="both")
    below = 0.62 / (5.0 * (fig.subplotpars.top - fig.subplotpars.bottom))
    ax.legend(fontsize=VALUE_FONT - 1, loc="upper center", bbox_to_anchor=(0.5, -below), ncol=2, frameon=False)
    return Chart(f"{_safe(workload.title)}-latency", title, fig)


# The most lines a threads chart holds: more are hard to tell apart (and the default colour cycle has 10).
MAX_SERIES = 8


def _sink_lines(rows: list[Row], sink: str) -> dict[str, list[Row]]:
    """Each method's rows on the chart of `sink`: those of the sink, and its rows of no sink (its one-thread row)."""
    lines: dict[str, list[Row]] = {}
    with_sink = {r.method for r in rows if dict(r.params).get("sink") == sink}
    for row in rows:
        params = dict(row.params)
        if params.get("sink", "") == sink or ("sink" not in params and row.method in with_sink):
            lines.setdefault(row.method, []).append(row)
    return lines


def _threads_chart(comparison: Comparison, workload: Workload, sink: str, lines: dict[str, list[Row]],
                   parts: list[list[tuple[str, int]]], part_index: int) -> Chart:
    """The chart of part `part_index` of a sink's lines (method, file): throughput against threads."""
    files = comparison.files
    part = parts[part_index]
    chunk_rows = [r for method, _ in part for r in lines[method]]
    scale, ylabel, _ = _unit(chunk_rows)
    fig, ax = plt.subplots(figsize=(7.0, 5.0))
    colors = _colors()
    styles = ["-", "--", ":", "-."]
    method_colors: dict[str, str] = {}
    for method, i in part:
        color = method_colors.setdefault(method, colors[len(method_colors) % len(colors)])
        line_rows = sorted(lines[method], key=lambda r: int(dict(r.params)["threads"]))
        points = [(int(dict(r.params)["threads"]), _rate(r.cells[i])) for r in line_rows]
        points = [(x, y / scale) for x, y in points if y is not None]
        label = method if len(files) == 1 else f"{method} ({files[i].label})"
        ax.plot([p[0] for p in points], [p[1] for p in points], label=label, color=color,
                linestyle=styles[i % len(styles)], marker="o")
    ax.set_xscale("log", base=2)
    values = sorted({int(dict(r.params)["threads"]) for r in chunk_rows})
    ax.set_xticks(values)
    ax.set_xticklabels([str(v) for v in values])
    ax.minorticks_off()
    ax.tick_params(labelsize=VALUE_FONT)
    ax.set_xlabel("threads, log scale", fontsize=LABEL_FONT)
    ax.set_ylabel(ylabel, fontsize=VALUE_FONT)
    ax.set_ylim(bottom=0)
    where = f", sink:{sink}" if sink else ""
    more = f" ({part_index + 1} of {len(parts)})" if len(parts) > 1 else ""
    title = f"{workload.title}{where}: throughput against threads{more}"
    ax.set_title(title, fontsize=LABEL_FONT + 1)
    ax.grid(alpha=0.3)
    below = 0.62 / (5.0 * (fig.subplotpars.top - fig.subplotpars.bottom))
    ax.legend(fontsize=VALUE_FONT - 1, loc="upper center", bbox_to_anchor=(0.5, -below), ncol=2,
              frameon=False)
    stem = f"{_safe(workload.title)}-threads" + (f"-{_safe(sink)}" if sink else "") + \
        (f"-{part_index + 1}" if len(parts) > 1 else "")
    return Chart(stem, title, fig)


def threads_charts(comparison: Comparison, workload: Workload, rows: list[Row]) -> list[Chart]:
    """Throughput against threads, a chart per sink ("shared", "per_thread"), as the summary's
    threads tables are laid out: a line per method (and file) that starts at its one-thread row
    (one thread shares nothing), at most MAX_SERIES lines a chart (more go to a second chart of the
    sink), each its own colour; x axis log2, labelled."""
    files = comparison.files
    sinks = sorted({dict(r.params)["sink"] for r in rows if "sink" in dict(r.params)}) or [""]
    out = []
    for sink in sinks:
        lines = _sink_lines(rows, sink)
        series = [(method, i) for method in lines for i in range(len(files))
                  if any(_rate(r.cells[i]) is not None for r in lines[method])]
        if not series:
            continue
        per_chart = max(1, MAX_SERIES // len(files)) * len(files)
        parts = [series[k:k + per_chart] for k in range(0, len(series), per_chart)]
        for part_index in range(len(parts)):
            out.append(_threads_chart(comparison, workload, sink, lines, parts, part_index))
    return out


def _size(value: int) -> str:
    for shift, unit in ((20, "M"), (10, "K")):
        if value >= 1 << shift and value % (1 << shift) == 0:
            return f"{value >> shift}{unit}"
    return str(value)


def charts(comparison: Comparison, workload: Workload) -> list[Chart]:
    """Every chart of a workload: its bar chart, one line chart per parameter sweep (threads:
    throughput against threads, a chart per sink: threads_charts), then the percentile plot of its
    per-call rows."""
    out = [bar_chart(comparison, workload)]
    for param, rows in sweeps(workload).items():
        if param == "threads":
            out.extend(threads_charts(comparison, workload, rows))
        else:
            out.append(sweep_chart(comparison, workload, param, rows))
    latency = percentile_chart(comparison, workload)
    if latency is not None:
        out.append(latency)
    return out


def svg(chart: Chart, salt: str) -> str:
    """The chart as an SVG element to inline in HTML (no XML declaration; ids unique by `salt`)."""
    plt.rcParams["svg.hashsalt"] = salt  # stable, and distinct between the charts of one page
    buffer = io.StringIO()
    chart.figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    plt.close(chart.figure)
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    # The <metadata> block only names the generator (with its web address): not needed in a page.
    start, end = text.find("<metadata>"), text.find("</metadata>")
    if 0 <= start < end:
        text = text[:start].rstrip(" ") + text[end + len("</metadata>"):].lstrip("\n")
    return text


def _render(chart: Chart, directory: str) -> list[tuple[str, bytes]]:
    """The chart's PNG and SVG files: (path in `directory`, bytes)."""
    files = []
    plt.rcParams["svg.hashsalt"] = "iobench-compare"  # stable element ids in the SVG
    for ext, metadata in (("png", {"Software": None}), ("svg", {"Date": None})):
        buffer = io.BytesIO()
        chart.figure.savefig(buffer, format=ext, metadata=metadata, bbox_inches="tight")
        files.append((os.path.join(directory, f"{chart.stem}.{ext}"), buffer.getvalue()))
    plt.close(chart.figure)
    return files


def plot(comparison: Comparison, directory: str) -> list[str]:
    """Writes every chart of the comparison into `directory` (created if
    missing); returns the paths. The files are written by output.write_file's
    rules (never through a link planted in a shared directory, each replaced
    in one step), and only once every name was checked: raises output.Refused
    before writing anything when `directory` is a link in a directory others
    can write to or a chart's name there is refused; OSError when a file
    cannot be written."""
    check_directory(directory)
    files = [f for workload in comparison.workloads for chart in charts(comparison, workload)
             for f in _render(chart, directory)]
    os.makedirs(directory, exist_ok=True)
    for path, _ in files:
        check_file(path)
    for path, data in files:
        write_file(path, data)
    return [path for path, _ in files]
