"""The HTML report: one self-contained file to open, look at and send.

Per workload the table (the same lines as the console and Markdown tables) and the
charts (inline SVG), the context of every file, the cv and confidence warnings,
and every skipped, failed or invalid row with its reason. No script, no font, no
image or style sheet is loaded from anywhere: the CSS is inline and the charts
draw their text as paths. No date of its own: the same JSON gives the same bytes.
"""

from __future__ import annotations

import html

from . import __version__
from . import columns, rules
from . import counters as counter_columns
from .compare import CV_WARNING, Comparison, Workload, median_interval, reads_a_file
from .number_format import format_count, format_time
from .plot import charts, svg
from .render import (CI_HEADER, LIMIT_LEGEND, SUMMARY_TITLE, STATUS_WORDS, baseline_sentence, body, headers,
                     interference_sentences, problem, summary_lines, table_title, time_header)

# The confidence level as the report writes it ("95%").
_LEVEL = f"{rules.CONFIDENCE * 100:.0f}%"

CSS = """
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --head: #f6f8fa;
        --warn: #fff1c2; --bad: #ffebe9; --good: #dafbe1; --skip: #f2f2f2; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1360px; padding: 24px; color: var(--fg); background: #fff;
       font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", sans-serif; }
h1 { font-size: 24px; margin: 0 0 8px; }
h2 { font-size: 19px; margin: 32px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 15px; margin: 20px 0 6px; }
p, ul { margin: 6px 0; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 13px; }
.muted { color: var(--muted); }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
table.results { font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 3px 7px; white-space: nowrap; vertical-align: top; }
td.text { white-space: normal; min-width: 14em; }
th { background: var(--head); text-align: left; font-weight: 600; }
td.num { text-align: right; }
tr.first td { border-top: 2px solid #8c959f; }
td.warn { background: var(--warn); }
td.faster { background: var(--good); }
td.slower { background: var(--bad); }
tr.failed td, tr.invalid td { background: var(--bad); }
tr.skipped td { background: var(--skip); color: var(--muted); font-style: italic; }
tr.limit td { color: var(--muted); }
table.context td, table.context th { white-space: normal; max-width: 360px; }
nav a { margin-right: 12px; }
figure { margin: 12px 0; }
figure svg { max-width: 100%; height: auto; }
.note { background: var(--warn); padding: 6px 10px; border-radius: 4px; }
.problems li { margin: 2px 0; }
footer { margin-top: 40px; color: var(--muted); font-size: 12px; }
"""

# Context keys shown per file, in this order, with their titles.
CONTEXT_ROWS = [
    ("file", "file"), ("compiler", "compiler"), ("standard_library", "standard library"), ("c_library", "C library"),
    ("build_type", "build type"), ("build_flags", "build flags"), ("os", "OS"), ("os_release", "OS release"),
    ("kernel", "kernel"), ("target_filesystem", "file system"), ("cpu_model", "CPU"), ("num_cpus", "CPUs"),
    ("suite", "suite"), ("scale", "scale"), ("file_size", "file size (file_read)"), ("repetitions", "repetitions"),
    ("counters", "counters available"), ("skipped", "methods not built"), ("added_families", "families built in"), ("plugins", "plugins"), ("date", "run date"),
    ("iobench_version", "iobench version"), ("iobench_git_commit", "iobench commit"),
]


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _anchor(name: str) -> str:
    return "w-" + "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in name)


def _plugins_text(value) -> str:
    """The context's "plugins" (iobench --plugin: a list of {path, sha256, families, ...}) as one
    line: "spdlog (spdlog_plugin.so, sha256 1a2b3c4d5e6f7a8b)", the digest's first 16 hex digits as iobench
    prints them; anything else as it is."""
    if not isinstance(value, list):
        return str(value)
    parts = []
    for p in value:
        if not isinstance(p, dict):
            parts.append(str(p))
            continue
        families = p.get("families")
        names = ", ".join(str(f) for f in families) if isinstance(families, list) else "?"
        path = str(p.get("path", "?")).replace("\\", "/").rsplit("/", 1)[-1]
        parts.append(f"{names} ({path}, sha256 {str(p.get('sha256', '?'))[:16]})")
    return "; ".join(parts)


def _added_families_text(value) -> str:
    """The context's "added_families" (an executable made with iobench_add_executable: a list of
    {family, compiler, build_type, ...}) as one line: "spdlog (Clang 14.0.6, Release)"; anything
    else as it is."""
    if not isinstance(value, list):
        return str(value)
    return "; ".join(f"{f.get('family', '?')} ({f.get('compiler', '?')}, {f.get('build_type', '?')})"
                     if isinstance(f, dict) else str(f) for f in value)


def _context_table(comparison: Comparison) -> str:
    files = comparison.files
    out = ['<div class="scroll"><table class="context">', "<tr><th></th>"]
    out += [f"<th>{_e(f.label)}</th>" for f in files]
    out.append("</tr>")
    any_file_read = any(reads_a_file(f) for f in files)
    for key, title in CONTEXT_ROWS:
        if key == "file_size" and not any_file_read:
            continue  # only file_read reads a file of that size
        values = []
        for f in files:
            if key == "file":
                values.append(f"<code>{_e(f.name)}</code>")
            elif key == "repetitions":
                values.append(_e(f.repetitions))
            elif key == "counters":
                available = f.available_counters
                values.append(_e(", ".join(available)) if available is not None else
                              '<span class="muted">not recorded (iobench before it counted them)</span>')
            elif key in ("plugins", "added_families"):
                value = f.context.get(key)
                text = _plugins_text if key == "plugins" else _added_families_text
                values.append(_e(text(value)) if value not in (None, "", []) else
                              '<span class="muted">-</span>')
            else:
                value = f.context.get(key)
                values.append(_e(value) if value not in (None, "") else '<span class="muted">-</span>')
        if key not in ("file", "repetitions", "counters") and all(f.context.get(key) in (None, "") for f in files):
            continue
        out.append(f"<tr><th>{_e(title)}</th>" + "".join(f"<td>{v}</td>" for v in values) + "</tr>")
    out.append("</table></div>")
    return "\n".join(out)


def _cell_class(header: str, text: str, cell, greyed: bool = False) -> str:
    classes = []
    if greyed:
        classes.append("muted")
    if header in ("significance", "note"):
        classes.append("text")
    elif header not in (columns.header("method"), "file"):
        classes.append("num")
    if header == columns.header("cv") and text.startswith("!"):
        classes.append("warn")
    if header == "significance" and cell is not None and cell.verdict == "significant" and cell.ratio is not None:
        classes.append("faster" if cell.ratio < 1 else "slower")
    return f' class="{" ".join(classes)}"' if classes else ""


def _workload_table(comparison: Comparison, workload: Workload) -> str:
    header = headers(comparison, workload)
    lines = body(comparison, workload)
    n = len(comparison.files)
    timed = {time_header(workload), CI_HEADER, columns.header("throughput"), columns.header("cv")}
    out = ['<div class="scroll"><table class="results">', "<tr>" + "".join(f"<th>{_e(h)}</th>" for h in header) +
           "</tr>"]
    for k, line in enumerate(lines):
        row = workload.rows[k // n]
        cell = row.cells[k % n]
        classes = []
        if k % n == 0 and n > 1:
            classes.append("first")
        if cell.status in STATUS_WORDS:
            classes.append(cell.status)
        if row.is_limit:
            classes.append("limit")
        attr = f' class="{" ".join(classes)}"' if classes else ""
        # A valgrind run's times are ~50x the real ones: shown greyed, never the figure.
        valgrind = comparison.files[k % n].context.get("instructions_source") == "valgrind"
        tds = "".join(f"<td{_cell_class(h, t, cell, valgrind and h in timed)}>{_e(t)}</td>"
                      for h, t in zip(header, line))
        out.append(f"<tr{attr}>{tds}</tr>")
    out.append("</table></div>")
    return "\n".join(out)


def _threads_tables(comparison: Comparison, workload: Workload) -> str:
    """The summary's threads tables: per sink (and file), a row per method, a column per thread
    count, each cell the median items per second with its 95% interval's half-width and the
    p99.9 call; a method's one-thread row (no sink: it shares nothing) in every sink's table.
    Empty unless the workload has per-call rows of two thread counts or more."""
    rows = [r for r in workload.rows if not r.is_limit and "threads" in dict(r.params)]
    counts = sorted({int(dict(r.params)["threads"]) for r in rows})
    if len(counts) < 2:
        return ""
    sinks = sorted({dict(r.params)["sink"] for r in rows if "sink" in dict(r.params)}) or [""]
    out = []
    for sink in sinks:
        with_sink = [r.method for r in rows if dict(r.params).get("sink") == sink]
        methods = list(dict.fromkeys(r.method for r in rows if r.method in with_sink or not sink))
        for i, f in enumerate(comparison.files):
            where = f", sink:{sink}" if sink else ""
            label = f" ({f.label})" if len(comparison.files) > 1 else ""
            out.append(f'<h3>{_e(workload.title + where)}: items per second &plusmn;{_LEVEL} CI, p99.9 call; '
                       f"a column per thread count{_e(label)}</h3>")
            out.append('<div class="scroll"><table class="results threads">')
            out.append("<tr><th>method</th>" + "".join(
                f"<th>{n} thread{'s' if n > 1 else ''}</th>" for n in counts) + "</tr>")
            for method in methods:
                tds = []
                for n in counts:
                    found = [r for r in rows if r.method == method and int(dict(r.params)["threads"]) == n and
                             dict(r.params).get("sink", sink if n == 1 else None) == sink]
                    cell = found[0].cells[i] if found else None
                    tds.append(f"<td>{_e(_threads_cell(cell))}</td>")
                out.append(f"<tr><td>{_e(method)}</td>{''.join(tds)}</tr>")
            out.append("</table></div>")
    return "\n".join(out)


def _threads_cell(cell) -> str:
    """"12.21 M/s ±1.4%, 3.0 us": a threads table's cell; "-" without a row, its status when not ok."""
    if cell is None:
        return "-"
    if not cell.ok:
        return cell.status
    if cell.items_per_second is None:
        return "-"
    text = f"{format_count(cell.items_per_second)}/s"
    interval = median_interval(cell.rates.get("items", []))
    if interval is not None and cell.items_per_second > 0:
        low, high = interval
        half = max(cell.items_per_second - low, high - cell.items_per_second) / cell.items_per_second
        text += f" \u00b1{half * 100:.1f}%"
    p999 = cell.counters.get("latency_p999_ns")
    if p999:
        text += f", {format_time(p999 / 1e9)}"
    return text


def _problems(comparison: Comparison, workload: Workload) -> str:
    items = []
    for row in workload.rows:
        for f, cell in zip(comparison.files, row.cells):
            text = problem(cell)
            if text:
                items.append(f"<li><code>{_e(row.name)}</code> in <code>{_e(f.name)}</code> ({_e(f.label)}): "
                             f"{_e(text)}</li>")
    if not items:
        return ""
    return '<h3>Skipped, failed and invalid rows</h3>\n<ul class="problems">\n' + "\n".join(items) + "\n</ul>"


def _cv_warning(comparison: Comparison) -> str:
    """The cv warning, once for the whole report: how many results it concerns, and what to do."""
    results = [c for w in comparison.workloads for r in w.rows for c in r.cells if c.ok]
    flagged = [c for c in results if c.cv is not None and c.cv >= CV_WARNING]
    if not flagged:
        return ""
    return (f'<p class="note" id="cv-warning">cv &ge; {CV_WARNING * 100:.0f}% (marked !) in {len(flagged)} of {len(results)} results: '
            "their repetitions disagree (a busy machine, page-cache writeback), so close rankings are not to be "
            "trusted; rerun with more <code>--benchmark_repetitions</code>, on an idle machine or a tmpfs "
            "<code>--dir</code>."
            + "".join(f"<br>{_e(text)}" for text in interference_sentences(comparison)) + "</p>")


def _warnings(comparison: Comparison, workload: Workload) -> str:
    notes = []
    few = [c for r in workload.rows for c in r.cells if c.verdict == "too few repetitions"]
    if few:
        notes.append("too few repetitions: the Mann-Whitney U test cannot reach the significance level with so "
                     "few repetitions (3 against 3 never goes below p = 0.1); use 5 or more for a comparison.")
    single = [c for r in workload.rows for c in r.cells if c.ok and c.cv is None]
    if single:
        notes.append("a cv of - means one repetition (or only a median row): nothing says how stable it is.")
    return "".join(f'<p class="note">{n}</p>\n' for n in notes)


def _workload(comparison: Comparison, workload: Workload, index: int) -> str:
    out = [f'<section id="{_anchor(workload.title)}">', f"<h2>{_e(workload.title)}</h2>"]
    if len(comparison.files) > 1:  # one file: always the time of a run
        out.append(f"<p>Compared: <strong>{_e(table_title(workload).split(': ', 1)[1])}</strong></p>")
    if workload.note:
        out.append(f'<p class="muted">({_e(workload.note)})</p>')
    out.append(_workload_table(comparison, workload))
    if any(r.is_limit for r in workload.rows):
        out.append(f'<p class="muted">{_e(LIMIT_LEGEND)}</p>')
    found = [ns for col in workload.columns for r in workload.rows for c in r.cells
             if c.ok and (ns := counter_columns.at_resolution(col, c)) is not None]
    if found:
        out.append(f'<p class="muted">{_e(counter_columns.resolution_legend(found))}</p>')
    out.append(_warnings(comparison, workload))
    out.append(_threads_tables(comparison, workload))
    for k, chart in enumerate(charts(comparison, workload)):
        out.append(f'<figure aria-label="{_e(chart.title)}">{svg(chart, f"iobench-{index}-{k}")}</figure>')
    out.append(_problems(comparison, workload))
    out.append("</section>")
    return "\n".join(o for o in out if o)


def _intro(comparison: Comparison) -> str:
    if comparison.compares:
        return baseline_sentence(comparison)
    limit = any(r.is_limit for w in comparison.workloads for r in w.rows)
    return (f"One result file: per workload the median time of a run, its {_LEVEL} interval, throughput, cv, "
            "x fastest "
            "(time / the fastest method's" + ("; the limit row is a reference, never the fastest" if limit else "") +
            ") and the counters each row carries.")


def to_html(comparison: Comparison) -> str:
    """The report as one HTML document."""
    names = ", ".join(f.name for f in comparison.files)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>iobench report: {_e(names)}</title>", f"<style>{CSS}</style>", "</head>", "<body>",
           "<header>", "<h1>iobench report</h1>", f"<p>{_e(_intro(comparison))}</p>", "</header>",
           '<section id="files">', f"<h2>{'Files' if len(comparison.files) > 1 else 'Run'}</h2>",
           _context_table(comparison)]
    out += [f'<p class="note">Note: {_e(n)}</p>' for n in comparison.notes]
    out.append("</section>")
    if comparison.summaries:
        title = SUMMARY_TITLE.split(": ", 1)[1]
        out += ['<section id="summary">', "<h2>Overall</h2>", f"<p>{_e(title[0].upper() + title[1:])}</p>", "<ul>"]
        out += [f"<li>{_e(line)}</li>" for line in summary_lines(comparison)] + ["</ul>", "</section>"]
    out.append("<nav>" + "".join(f'<a href="#{_anchor(w.title)}">{_e(w.title)}</a>' for w in comparison.workloads) +
               "</nav>")
    out.append(_cv_warning(comparison))
    for k, workload in enumerate(comparison.workloads):
        out.append(_workload(comparison, workload, k))
    out += [f"<footer>Written by iobench-compare {_e(__version__)} from {_e(names)}. Times: median over the "
            f"repetitions; {_LEVEL} CI: the distribution-free {_LEVEL} interval of that median (order statistics, "
            "binomial(n, 1/2)) as its larger distance from it, - below "
            f"{rules.MIN_REPETITIONS_FOR_INTERVAL} repetitions; throughput in decimal units "
            "(1 MB/s = 10<sup>6</sup> B/s); cv: standard deviation / mean of the repetitions' wall times; "
            f"the bars' error bars: the {_LEVEL} interval of the median throughput.</footer>", "</body>", "</html>"]
    return "\n".join(out) + "\n"
