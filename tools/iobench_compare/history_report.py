"""What a history holds, written out: its series and runs, and the regressions its change points show.

Console and Markdown (tables by tabulate, as the comparison's), CSV (one line per run and
benchmark: the history's numbers, unrounded) and an HTML page in the comparison report's frame:
the regressions and improvements with the commit range each falls in, then per series its runs
and one chart per benchmark (history_svg: median time with its 95 % interval as a band, a per-call
row's percentiles, the throughput, instructions per item where counted, each change point a dashed
vertical line). Like the report it is self-contained
and carries no date of its own: the same history gives the same bytes.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
import html
import io

from tabulate import tabulate

from . import __version__, history_svg
from .changepoints import (COUNT_NOISE, INSTRUCTIONS, MACHINE, MIN_SEGMENT, MIN_TIME_EFFECT, TIME, TIME_NOISE,
                           Change, at_machine_step, changes, machine_changes, machine_levels, points)
from .history import History, Series
from .number_format import format_count, format_time

METHOD = ("Change points: binary segmentation of the log of each benchmark's median time, and separately of its "
          "instructions per item, per series; a split is a change point only where the step between the medians "
          "of its two parts stands out of the runs' own noise: at least 1.5 + sqrt(2 ln n) standard errors, the "
          "noise of a run being the larger of the spread between neighbouring runs (their MAD), the runs' 95% "
          f"intervals of the median and {TIME_NOISE:.0%} for times ({COUNT_NOISE:.2%} for counts); a time's step "
          f"is also {MIN_TIME_EFFECT:.0%} or more; parts of {MIN_SEGMENT} runs or more, mostly at their level. "
          "Before and after: the medians of the runs on each side; commits: the last run before the step and "
          "the first after it.")

CSV_COLUMNS = ["series", "host", "cpu_model", "compiler", "suite", "scale", "instructions_source", "run", "label",
               "run_at", "file", "iobench_version", "iobench_commit", "kernel", "benchmark", "status", "median_s",
               "ci_low_s", "ci_high_s", "instructions_per_item", "repetitions", "error", "p50_s", "p99_s", "p999_s",
               "bytes_per_second", "items_per_second"]


def format_figure(value: float, figure: str) -> str:
    """A time ("1.52 ms"), instructions per item ("412.3") or a machine level ("x1.98")."""
    if figure == MACHINE:
        return f"x{value:.2f}"
    return format_time(value) if figure == TIME else format_count(value)


@dataclass
class Found:
    """The change points of a history: those judged (regressions and improvements), the steps of the machine
    (every benchmark of a series together) and the time change points at such a step, not judged."""

    judged: list[Change]
    machine: list[Change]
    at_machine: list[Change]


def find(history: History) -> Found:
    """Every change point of every series, benchmark and figure (benchmarks in name order, time before
    instructions), split as Found says."""
    found = Found([], [], [])
    for series in history.series:
        levels = machine_levels(series)
        steps = machine_changes(series, levels)
        found.machine += steps
        for benchmark in series.benchmarks:
            for figure in (TIME, INSTRUCTIONS):
                for change in changes(series, benchmark, figure, levels):
                    (found.at_machine if at_machine_step(change, steps) else found.judged).append(change)
    return found


MACHINE_TITLE = ("steps of the machine: every benchmark's time moved together (a load, another machine, or a change "
                 "common to all: instructions per item tell which); the time change points of single benchmarks at "
                 "them are not judged")


def format_change(change: float) -> str:
    """A relative change with its sign: "+25.0%", "-3.1%"."""
    return f"{change * 100:+.1f}%"


def _series_number(history: History, series: Series) -> int:
    return history.series.index(series) + 1


def _change_lines(history: History, found: list[Change]) -> list[list[str]]:
    return [[c.benchmark, str(_series_number(history, c.series)), c.figure, format_figure(c.before, c.figure),
             format_figure(c.after, c.figure), format_change(c.change), c.commits] for c in found]


CHANGE_HEADER = ["benchmark", "series", "figure", "before", "after", "change", "commits"]


def split(found: list[Change]) -> tuple[list[Change], list[Change]]:
    """(regressions, largest change first; improvements, largest first)."""
    regressions = sorted((c for c in found if c.regression), key=lambda c: -c.change)
    improvements = sorted((c for c in found if not c.regression), key=lambda c: c.change)
    return regressions, improvements


def _short(commit: str | None) -> str:
    if not commit:
        return "-"
    dirty = commit.endswith("+dirty")
    return commit[:12] + ("+dirty" if dirty and len(commit) > 18 else "")


def _run_lines(series: Series) -> list[list[str]]:
    return [[str(k + 1), r.label, r.run_at, f"{r.iobench_version or '?'} ({_short(r.iobench_commit)})",
             r.build_type or "-", r.kernel or "-", r.file_name] for k, r in enumerate(series.runs)]


RUN_HEADER = ["run", "label", "date (UTC)", "iobench", "build", "kernel", "file"]


def _heading(history: History) -> str:
    runs = f"{history.runs} run" + ("" if history.runs == 1 else "s")
    series = f"{len(history.series)} series"
    return f"history {history.db.shown} ({history.db.backend}): {runs} in {series}"


def _series_line(history: History, series: Series) -> str:
    n = len(series.runs)
    return (f"series {_series_number(history, series)}: {series.title}: {n} run{'' if n == 1 else 's'}, "
            f"{len(series.benchmarks)} benchmarks")


def to_console(history: History) -> str:
    """The history as console text: its series with their runs, then the regressions and improvements."""
    out = [_heading(history)]
    for series in history.series:
        out += ["", _series_line(history, series)]
        table = tabulate(_run_lines(series), RUN_HEADER, tablefmt="simple", disable_numparse=True)
        out += ["  " + line for line in table.splitlines()]
    everything = find(history)
    regressions, improvements = split(everything.judged)
    for title, found in (("regressions: change points where a benchmark got slower or counts more instructions "
                          "per item", regressions), ("improvements", improvements),
                         (MACHINE_TITLE, everything.machine + everything.at_machine)):
        out += ["", title]
        if found:
            table = tabulate(_change_lines(history, found), CHANGE_HEADER, tablefmt="simple", disable_numparse=True)
            out += ["  " + line for line in table.splitlines()]
        else:
            out.append("  none")
    out += ["", METHOD]
    return "\n".join(out) + "\n"


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(history: History) -> str:
    """The history as Markdown: the same as the console's, as headings and pipe tables."""
    out = [f"**{_md(_heading(history))}**"]
    for series in history.series:
        out += ["", f"### {_md(_series_line(history, series))}", ""]
        out.append(tabulate([[_md(c) for c in line] for line in _run_lines(series)], RUN_HEADER, tablefmt="pipe",
                            disable_numparse=True))
    everything = find(history)
    regressions, improvements = split(everything.judged)
    for title, found in (("Regressions", regressions), ("Improvements", improvements),
                         (MACHINE_TITLE[0].upper() + MACHINE_TITLE[1:], everything.machine + everything.at_machine)):
        out += ["", f"### {title}", ""]
        if found:
            out.append(tabulate([[_md(c) for c in line] for line in _change_lines(history, found)], CHANGE_HEADER,
                                tablefmt="pipe", disable_numparse=True))
        else:
            out.append("none")
    out += ["", METHOD]
    return "\n".join(out) + "\n"


def _number(value) -> str:
    return "" if value is None else repr(float(value)) if isinstance(value, float) else str(value)


def to_csv(history: History) -> str:
    """One line per run and benchmark, numbers unrounded (times in seconds), series by series, runs in order."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for number, series in enumerate(history.series, 1):
        for k, run in enumerate(series.runs):
            for benchmark, values in series.benchmarks.items():
                result = values[k]
                if result is None:
                    continue
                ci = result.ci or (None, None)
                writer.writerow([number, run.host, run.cpu_model, run.compiler, run.suite, run.scale,
                                 run.instructions_source or "", k + 1, run.label,
                                 run.run_at, run.file_name, run.iobench_version, run.iobench_commit, run.kernel,
                                 benchmark, result.status, _number(result.median), _number(ci[0]), _number(ci[1]),
                                 _number(result.instructions), _number(result.repetitions), result.error or "",
                                 _number(result.p50), _number(result.p99), _number(result.p999),
                                 _number(result.bytes_per_second), _number(result.items_per_second)])
    return buffer.getvalue()


# --- HTML --------------------------------------------------------------------------------------------

def _e(text) -> str:
    return html.escape(str(text), quote=True)


def anchor(series_number: int, benchmark: str) -> str:
    """The id of a benchmark's chart in the page: "s1-ints_out-obuf"."""
    return f"s{series_number}-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in benchmark)


# The colours of the time and of a change point (the charts': history_svg).
TIME_COLOR = history_svg.TIME_COLOR
CHANGE_COLOR = history_svg.CHANGE_COLOR


def _change_table(history: History, found: list[Change], regression: bool) -> str:
    if not found:
        return '<p class="muted">none</p>'
    out = ['<div class="scroll"><table class="results changes">',
           "<tr>" + "".join(f"<th>{_e(h)}</th>" for h in CHANGE_HEADER) + "</tr>"]
    for c, line in zip(found, _change_lines(history, found)):
        target = (f"series-{_series_number(history, c.series)}" if c.figure == MACHINE else
                  anchor(_series_number(history, c.series), c.benchmark))
        link = f'<a href="#{target}">{_e(line[0])}</a>'
        cls = "slower" if regression else "faster"
        tds = [f"<td>{link}</td>", f'<td class="num">{_e(line[1])}</td>', f"<td>{_e(line[2])}</td>",
               f'<td class="num">{_e(line[3])}</td>', f'<td class="num">{_e(line[4])}</td>',
               f'<td class="num {cls}">{_e(line[5])}</td>', f"<td><code>{_e(line[6])}</code></td>"]
        out.append("<tr>" + "".join(tds) + "</tr>")
    out.append("</table></div>")
    return "\n".join(out)


def _runs_table(series: Series) -> str:
    out = ['<div class="scroll"><table class="context runs">',
           "<tr>" + "".join(f"<th>{_e(h)}</th>" for h in RUN_HEADER) + "</tr>"]
    for line in _run_lines(series):
        out.append("<tr>" + "".join(f"<td>{_e(v)}</td>" for v in line) + "</tr>")
    out.append("</table></div>")
    return "\n".join(out)


def to_html(history: History) -> str:
    """The history as one self-contained HTML page (the comparison report's style sheet)."""
    from .report import CSS

    everything = find(history)
    by_chart: dict[tuple[int, str], dict[str, list[Change]]] = {}
    for change in everything.judged:
        by_chart.setdefault((id(change.series), change.benchmark), {}).setdefault(change.figure, []).append(change)
    regressions, improvements = split(everything.judged)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>iobench history: {_e(history.db.shown)}</title>", f"<style>{CSS}</style>", "</head>", "<body>",
           "<header>", "<h1>iobench history</h1>", f"<p>{_e(_heading(history)[0].upper() + _heading(history)[1:])}. "
           "A series is the runs of one machine (host and CPU), compiler, suite and scale (and counter of "
           "instructions, if any).</p>", "</header>",
           '<section id="regressions">', "<h2>Regressions</h2>",
           "<p>Change points where a benchmark got slower, or counts more instructions per item.</p>",
           _change_table(history, regressions, True), "</section>",
           '<section id="improvements">', "<h2>Improvements</h2>", _change_table(history, improvements, False),
           "</section>", '<section id="machine">', "<h2>Steps of the machine</h2>",
           f"<p>{_e(MACHINE_TITLE[0].upper() + MACHINE_TITLE[1:])}.</p>",
           _change_table(history, everything.machine + everything.at_machine, True), "</section>"]
    for number, series in enumerate(history.series, 1):
        out += [f'<section id="series-{number}">', f"<h2>{_e(_series_line(history, series))}</h2>",
                _runs_table(series)]
        for benchmark in series.benchmarks:
            if not (points(series, benchmark, TIME) or points(series, benchmark, INSTRUCTIONS)):
                out.append(f'<p class="muted" id="{anchor(number, benchmark)}"><code>{_e(benchmark)}</code>: no run '
                           "with a result</p>")
                continue
            gid = anchor(number, benchmark)
            title, drawn = history_svg.draw(series, gid, benchmark, by_chart.get((id(series), benchmark), {}))
            out.append(f'<figure id="{gid}" aria-label="{_e(title)}">{drawn}</figure>')
        out.append("</section>")
    out += [f"<footer>Written by iobench-compare {_e(__version__)} from the history {_e(history.db.shown)}. "
            f"{_e(METHOD)} Times: the median over a run's repetitions; the band: the distribution-free 95% "
            "interval of that median (6 repetitions or more).</footer>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def render(history: History, fmt: str) -> str:
    """The history in format `fmt`: console, md, csv or html."""
    return {"console": to_console, "md": to_markdown, "csv": to_csv, "html": to_html}[fmt](history)
