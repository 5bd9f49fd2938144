"""Rendering a Comparison: console tables, Markdown and CSV (tables laid out by tabulate).

Every table has one line per method and file: the method, the file, what the table
compares (time per run or per item), throughput, cv, x fastest, the counter
columns the rows carry, and the ratio and significance against the baseline.

The console and Markdown outputs print no date and no directory, so that the same
input files always give the same bytes (the tests compare them with golden files).
"""

from __future__ import annotations

import csv
import io

from tabulate import tabulate

from . import columns
from . import counters as counter_columns
from .compare import (CI_LEVEL, CV_WARNING, LIMIT_METHOD, Cell, Comparison, Row, Workload, emulation_mismatch,
                      interference, reads_a_file)
from .number_format import format_percent, format_ratio, format_throughput, format_time  # noqa: F401 (re-exported)

CV_LEGEND = (f"! cv >= {CV_WARNING * 100:.0f}%: the repetitions disagree; the machine was busy or the page cache "
             "was writing back. Rerun with more --benchmark_repetitions, on an idle machine or a tmpfs --dir.")

LIMIT_LEGEND = (f"{LIMIT_METHOD}: the workload's memory-bound limit (the same bytes formatted in memory and written "
                "or read in 1 MiB calls); a reference (ref), never counted as the fastest method.")

INSTRUCTIONS_LEGEND = ("instr/item: user-space instructions per item of the measured calls (iobench --instructions; "
                       "counted by {}), reproducible to about 5 significant digits: a larger difference is the "
                       "code's, no test needed.")
VALGRIND_LEGEND = "Counted under valgrind: those files' times are ~50x the real ones and not the figure."

STATUS_WORDS = {"failed": "FAILED", "skipped": "skipped", "invalid": "invalid"}


def format_p(p: float) -> str:
    """A p-value with three decimals, or in scientific notation below 0.001."""
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def format_verdict(cell: Cell) -> str:
    """The significance cell: "significant (p=0.008)", "too few repetitions", "baseline", ..."""
    if cell.verdict is None:
        return "-" if cell.ok else ""
    if cell.p_value is None:
        return cell.verdict
    return f"{cell.verdict} (p={format_p(cell.p_value)})"


def format_cv(cell: Cell) -> str:
    """Coefficient of variation of the repetitions' wall times, "! " in front when >= 5 %."""
    if cell.cv is None:
        return "-"
    return ("! " if cell.cv >= CV_WARNING else "") + format_percent(cell.cv)


def format_ci(cell: Cell) -> str:
    """The 95% interval of the median as its larger distance from the median: "±3.2%"; "-" below 6
    repetitions (too few for a distribution-free interval)."""
    if cell.ci is None or not cell.value:
        return "-"
    low, high = cell.ci
    return "\u00b1" + format_percent(max(cell.value - low, high - cell.value) / cell.value)


def problem(cell: Cell) -> str | None:
    """"FAILED: <message>", "skipped: <reason>" or "invalid: <reason>" for a cell without a result."""
    if cell.status in STATUS_WORDS:
        return f"{STATUS_WORDS[cell.status]}: {cell.error}"
    return None


def file_details(comparison: Comparison, index: int) -> str:
    """Suite, scale, file size (of file_read's file), build type, file system and repetitions of a file."""
    f = comparison.files[index]
    reads = reads_a_file(f)
    parts = []
    for key, fmt in (("suite", "suite {}"), ("scale", "scale {}"), ("file_size", "file size {}"),
                     ("build_type", "{}"), ("target_filesystem", "{}")):
        if key == "file_size" and not reads:
            continue  # only file_read reads a file of that size
        if f.context.get(key) not in (None, ""):
            parts.append(fmt.format(f.context[key]))
    n = f.repetitions
    parts.append(f"{n} repetition" + ("" if n == 1 else "s"))
    return ", ".join(parts)


def baseline_sentence(comparison: Comparison, md: bool = False) -> str:
    """What the ratios and the significance are against, in one sentence."""
    def strong(text: str) -> str:
        return f"**{text}**" if md else text

    def code(text: str) -> str:
        return f"`{text}`" if md else text

    if comparison.baseline_file is not None:
        f = comparison.files[comparison.baseline_file]
        base = f"baseline: {strong(f.label)}"
        stem = f.name[:-5] if f.name.endswith(".json") else f.name
        if stem not in f.label:
            base += f" ({code(f.name)})"
    else:
        first, *others = [strong(m) for m in comparison.baseline_methods]
        alternatives = f" (else {', else '.join(others)})" if others else ""
        base = f"baseline: the method {first}{alternatives} of the same workload and file"
    counted = any(w.figure == "instructions" for w in comparison.workloads)
    instructions = (" In a table whose rows all count instructions per item (--instructions), those counts rank "
                    "and compare the rows instead: ratio = instructions per item / the baseline's, without a test "
                    "(a count)." if counted else "")
    return (f"{base[0].upper()}{base[1:]}. Ratio = median time / the baseline's (below 1: faster), per run, or per "
            "item where the counts differ. Significance: two-sided Mann-Whitney U on the repetitions' times, "
            f"alpha {comparison.alpha:g}.{instructions}")


def table_title(workload: Workload) -> str:
    """ "ints_out: time per run", or per item with the reason; "ints_out: instructions per item" where
    the rows are ranked and compared by their instruction counts."""
    if workload.figure == "instructions":
        return (f"{workload.title}: instructions per item (every row counted them: ranked and compared by the "
                "counts, ratios without a test)")
    if workload.per_item:
        return f"{workload.title}: time per {workload.unit} ({workload.unit_note})"
    return f"{workload.title}: time per run"


# The headers of the columns iobench's summary has too (columns.py); the 95% CI one says CI_LEVEL.
CI_HEADER = columns.header("ci")
COLD_WARM_HEADER = columns.header("cold_warm")


def time_header(workload: Workload) -> str:
    """The summary's "time", or "time/integer" where the table compares the time per item: another quantity."""
    return f"{columns.header('time')}/{workload.unit}" if workload.per_item else columns.header("time")


def headers(comparison: Comparison, workload: Workload) -> list[str]:
    """The column names of a workload's table."""
    cols = [columns.header("method")]
    if len(comparison.files) > 1:
        cols.append("file")
    cols += [time_header(workload), CI_HEADER, columns.header("throughput"), columns.header("cv"),
             columns.header("x_fastest")]
    if workload.cold_warm:
        cols.append(COLD_WARM_HEADER)
    cols += [c.header for c in workload.columns]
    if comparison.compares:
        cols += ["ratio", "significance"]
    elif _has_problems(workload):
        cols.append("note")
    return cols


def _has_problems(workload: Workload) -> bool:
    return any(problem(c) for r in workload.rows for c in r.cells)


def cells(comparison: Comparison, workload: Workload, row: Row, index: int) -> list[str]:
    """The texts of one line (a method in one file) without the method and file columns."""
    cell = row.cells[index]
    n_counters = len(workload.columns) + workload.cold_warm
    if cell.ok:
        texts = [format_time(cell.value) if cell.value is not None else format_time(cell.time) + " per run",
                 format_ci(cell),
                 format_throughput(cell.bytes_per_second) if cell.bytes_per_second is not None else "-",
                 format_cv(cell),
                 "ref" if row.is_limit else format_ratio(cell.x_fastest) if cell.x_fastest is not None else "-"]
        if workload.cold_warm:
            texts.append(format_ratio(cell.cold_warm) if cell.cold_warm is not None else "-")
        texts += [counter_columns.cell_text(c, cell) for c in workload.columns]
        last = [format_ratio(cell.ratio) if cell.ratio is not None and cell.verdict != "baseline" else
                ("" if cell.verdict == "baseline" else "-"), format_verdict(cell)]
    elif cell.status == "missing":
        texts, last = ["-", "", "", "", ""] + [""] * n_counters, ["", ""]
    else:
        texts, last = [STATUS_WORDS[cell.status], "", "", "", ""] + [""] * n_counters, ["", problem(cell)]
    if comparison.compares:
        return texts + last
    if _has_problems(workload):
        return texts + [last[1] if not cell.ok else ""]
    return texts


def body(comparison: Comparison, workload: Workload) -> list[list[str]]:
    """Every line of a workload's table: a method in each file (the method named on its first line)."""
    lines = []
    for row in workload.rows:
        for i, f in enumerate(comparison.files):
            line = [row.key if i == 0 else ""]
            if len(comparison.files) > 1:
                line.append(f.label)
            lines.append(line + cells(comparison, workload, row, i))
    return lines


def _align(header: list[str]) -> list[str]:
    left = {columns.header("method"), "file", "significance", "note"}
    return ["left" if h in left else "right" for h in header]


def summary_lines(comparison: Comparison) -> list[str]:
    """One line per file against the baseline file: the geometric mean of the ratios."""
    lines = []
    for s in comparison.summaries:
        f, base = comparison.files[s.file], comparison.files[s.baseline]
        if s.geomean is None and (why := emulation_mismatch(f, base)) is not None:
            lines.append(f"{f.label} against {base.label}: {why}")
            continue
        if s.geomean is None:
            lines.append(f"{f.label} against {base.label}: no row both files have a comparable result for")
            continue
        rows = f"{s.rows} row" + ("" if s.rows == 1 else "s")
        per_item = f", {s.per_item} of them per item" if s.per_item else ""
        if s.by_instructions == s.rows:
            per_item += ", by instructions per item"
        elif s.by_instructions:
            per_item += f", {s.by_instructions} of them by instructions per item"
        lines.append(f"{f.label} against {base.label}: {format_ratio(s.geomean)} over {rows}{per_item}")
    return lines


SUMMARY_TITLE = ("overall: geometric mean of the ratios over the rows both files have "
                 "(limit rows excluded; below 1: faster)")


def _any_cv_flag(comparison: Comparison) -> bool:
    return any(c.cv is not None and c.cv >= CV_WARNING
               for w in comparison.workloads for r in w.rows for c in r.cells if c.ok)


def _any_limit(comparison: Comparison) -> bool:
    return any(r.is_limit for w in comparison.workloads for r in w.rows)


def interference_sentences(comparison: Comparison) -> list[str]:
    """What the spread of flagged results came with: stolen time (the host) or CPU pressure (this machine)."""
    found = interference(comparison)
    out = []
    if found["host"]:
        out.append("! host interference: the hypervisor took CPU time from the machine while "
                   f"{', '.join(found['host'])} ran (steal_time, as % of the wall time per run): their spread is "
                   "the host's, not the method's.")
    if found["cpu"]:
        out.append(f"! CPU contention: other work on the machine kept tasks waiting for a CPU while "
                   f"{', '.join(found['cpu'])} ran (cpu_wait, as % of the wall time per run): a busy machine, "
                   "not the method.")
    return out


def at_resolution_legend(comparison: Comparison) -> str | None:
    """The sentence on per-call figures at the clock's resolution, where a table shows one."""
    found = [ns for w in comparison.workloads for col in w.columns for r in w.rows for c in r.cells
             if c.ok and (ns := counter_columns.at_resolution(col, c)) is not None]
    return counter_columns.resolution_legend(found) if found else None


def legends(comparison: Comparison) -> list[str]:
    out = []
    resolution = at_resolution_legend(comparison)
    if resolution:
        out.append(resolution)
    if _any_cv_flag(comparison):
        out.append(CV_LEGEND)
        out += interference_sentences(comparison)
    if _any_limit(comparison):
        out.append(LIMIT_LEGEND)
    counted = [f"{f.label}: {f.context['instructions_source']}" for f in comparison.files
               if f.context.get("instructions_source")]
    if counted:
        out.append(INSTRUCTIONS_LEGEND.format(", ".join(counted)))
        if any(f.context.get("instructions_source") == "valgrind" for f in comparison.files):
            out.append(VALGRIND_LEGEND)
    return out


def _indent(text: str) -> list[str]:
    return ["  " + line.rstrip() for line in text.splitlines()]


def _short_rule(table: str, width: int) -> str:
    """The table with the rule under its last (left-aligned, text) column `width` long: a long reason
    (FAILED: ..., skipped: ...) would otherwise draw a rule across the whole screen."""
    lines = table.split("\n")
    if len(lines) > 1:
        rule = lines[1].rstrip()
        start = rule.rfind(" ") + 1
        lines[1] = rule[:start] + "-" * min(len(rule) - start, width)
    return "\n".join(lines)


def to_console(comparison: Comparison) -> str:
    """Plain-text tables, one per workload; a header names the files, a footer sums them up."""
    out = [baseline_sentence(comparison), "", "files"]
    files = [[f.label, f.name, file_details(comparison, i)] for i, f in enumerate(comparison.files)]
    out += _indent(tabulate(files, tablefmt="plain", disable_numparse=True))
    out += [f"note: {n}" for n in comparison.notes]
    for workload in comparison.workloads:
        header = headers(comparison, workload)
        out += ["", table_title(workload)]
        if workload.note:
            out.append(f"  ({workload.note})")
        lines = body(comparison, workload)
        table = tabulate(lines, header, tablefmt="simple", disable_numparse=True, colalign=_align(header))
        if _align(header)[-1] == "left":  # significance or note: the rule as wide as the texts that are no reason
            reasons = tuple(f"{word}: " for word in STATUS_WORDS.values())
            width = max([len(header[-1])] + [len(line[-1]) for line in lines if not line[-1].startswith(reasons)])
            table = _short_rule(table, width)
        out += _indent(table)
    if comparison.summaries:
        out += ["", SUMMARY_TITLE] + ["  " + line for line in summary_lines(comparison)]
    legend = legends(comparison)
    if legend:
        out += [""] + legend
    return "\n".join(out) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(comparison: Comparison) -> str:
    """Markdown: the baseline sentence, the files as a list, one table per workload, the summary."""
    out = [baseline_sentence(comparison, md=True), ""]
    for i, f in enumerate(comparison.files):
        out.append(f"- **{_md_escape(f.label)}**: `{f.name}` ({file_details(comparison, i)})")
    out += [f"- note: {_md_escape(n)}" for n in comparison.notes]
    for workload in comparison.workloads:
        header = headers(comparison, workload)
        out += ["", f"### {_md_escape(table_title(workload))}", ""]
        if workload.note:
            out += [f"({workload.note})", ""]
        lines = [[_md_escape(c) for c in line] for line in body(comparison, workload)]
        out.append(tabulate(lines, [_md_escape(h) for h in header], tablefmt="pipe", disable_numparse=True,
                            colalign=_align(header)))
    if comparison.summaries:
        out += ["", f"**{SUMMARY_TITLE[0].upper()}{SUMMARY_TITLE[1:]}**", ""]
        out += [f"- {_md_escape(line)}" for line in summary_lines(comparison)]
    legend = legends(comparison)
    if legend:
        out += [""] + [_md_escape(line) + "  " if k + 1 < len(legend) else _md_escape(line)
                       for k, line in enumerate(legend)]
    return "\n".join(out) + "\n"


# Counters the CSV always has a column for (empty when a row does not carry it).
# The calls first; steal_time and cpu_wait (the machine's, not the row's) only explain a spread.
CSV_COUNTERS = ["write_calls", "read_calls", "bytes_per_call"] + [
    name for name in counter_columns.OS_COUNTER_NAMES if name not in ("read_calls", "write_calls", "steal_time", "cpu_wait")
] + ["x_limit", "instructions_per_item"]

CSV_COLUMNS = ["workload", "benchmark", "method", "file", "label", "status", "error", "repetitions",
               "source", "real_time_s", "cpu_time_s", "bytes_per_second", "items_per_second", "cv",
               "items_per_run", "bytes_per_run", "compared_per", "compared_time_s", "x_fastest",
               "baseline", "ratio", "p_value", "verdict"] + CSV_COUNTERS + [
               "ci_low_s", "ci_high_s", "cold_warm", "family", "reference"]


def _number(value: float | None) -> str:
    return "" if value is None else repr(float(value))


def to_csv(comparison: Comparison) -> str:
    """CSV, one line per benchmark and file, numbers unrounded (seconds, per second, fractions)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for workload in comparison.workloads:
        for row in workload.rows:
            for f, cell in zip(comparison.files, row.cells):
                writer.writerow([workload.name, row.name, row.key, f.name, f.label, cell.status, cell.error or "",
                                 len(cell.samples) if cell.ok and cell.samples else "", cell.source or "",
                                 _number(cell.time), _number(cell.cpu_time), _number(cell.bytes_per_second),
                                 _number(cell.items_per_second), _number(cell.cv), _number(cell.items),
                                 _number(cell.bytes), workload.unit if cell.ok else "", _number(cell.value),
                                 _number(cell.x_fastest), row.baseline or "", _number(cell.ratio),
                                 _number(cell.p_value), cell.verdict or ""] +
                                [_number(cell.counters.get(c)) for c in CSV_COUNTERS] +
                                [_number(cell.ci[0] if cell.ci else None), _number(cell.ci[1] if cell.ci else None),
                                 _number(cell.cold_warm), (row.structure.family or "") if row.structure else "",
                                 "true" if row.is_limit else "false"])
    return buffer.getvalue()
