"""Rendering a Comparison: console table, Markdown and CSV.

The console and Markdown outputs print no date and no directory, so that the same
input files always give the same bytes (the tests compare them with golden files).
"""

from __future__ import annotations

import csv
import io

from .compare import CV_WARNING, Cell, Comparison, Workload

CV_LEGEND = ("! cv >= 5%: the repetitions disagree; the machine was busy or the page cache was writing back. "
             "Rerun with more --benchmark_repetitions, on an idle machine or a tmpfs --dir.")


def format_time(seconds: float) -> str:
    """Wall time as iobench's summary prints it: "554.7 us", "2.81 ms", "729 ms", "2.10 s"."""
    ms = seconds * 1e3
    if ms >= 1000:
        return f"{seconds:.2f} s"
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 1:
        return f"{ms:.2f} ms"
    if ms >= 0.001:
        return f"{ms * 1e3:.1f} us"
    return f"{ms * 1e6:.0f} ns"


def format_throughput(bytes_per_second: float) -> str:
    """Bytes per wall second in decimal units, as iobench's summary prints them: "1.06 GB/s"."""
    if bytes_per_second >= 1e9:
        return f"{bytes_per_second / 1e9:.2f} GB/s"
    if bytes_per_second >= 1e6:
        return f"{bytes_per_second / 1e6:.1f} MB/s"
    if bytes_per_second >= 1e3:
        return f"{bytes_per_second / 1e3:.1f} kB/s"
    return f"{bytes_per_second:.0f} B/s"


def format_ratio(ratio: float) -> str:
    """Time ratio to the baseline: "0.52x" (faster), "9.55x" (slower)."""
    if ratio >= 100:
        return f"{ratio:.0f}x"
    if ratio >= 10:
        return f"{ratio:.1f}x"
    return f"{ratio:.2f}x"


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


def format_cv(cell: Cell, pad: bool = False) -> str:
    """Coefficient of variation of the repetitions' wall times, "!" when >= 5 %
    (`pad`: two spaces instead, so that a column of them lines up)."""
    if cell.cv is None:
        return "-" + ("  " if pad else "")
    return f"{cell.cv * 100:.1f}%" + (" !" if cell.cv >= CV_WARNING else "  " if pad else "")


def _file_details(comparison: Comparison, index: int) -> str:
    f = comparison.files[index]
    parts = []
    for key, fmt in (("suite", "suite {}"), ("scale", "scale {}"), ("build_type", "{}"),
                     ("target_filesystem", "{}")):
        if f.context.get(key) not in (None, ""):
            parts.append(fmt.format(f.context[key]))
    n = f.repetitions
    parts.append(f"{n} repetition" + ("" if n == 1 else "s"))
    return ", ".join(parts)


def _baseline_sentence(comparison: Comparison, md: bool) -> str:
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
    return (f"{base[0].upper()}{base[1:]}. Ratio = median wall time / the baseline's (below 1: faster). "
            f"Significance: two-sided Mann-Whitney U on the repetitions' wall times, alpha {comparison.alpha:g}.")


def _has_comparison_columns(comparison: Comparison, index: int) -> bool:
    return comparison.baseline_file is None or index != comparison.baseline_file


def _columns(comparison: Comparison, index: int) -> list[str]:
    cols = ["time", "throughput", "cv"]
    if _has_comparison_columns(comparison, index):
        cols += ["ratio", "significance"]
    return cols


def _cells(comparison: Comparison, index: int, cell: Cell, footnote: int | None, pad: bool) -> list[str]:
    if cell.status == "failed":
        texts = [f"FAILED ({footnote})", "", ""]
    elif cell.status == "missing":
        texts = ["-", "", ""]
    else:
        texts = [format_time(cell.time),
                 format_throughput(cell.bytes_per_second) if cell.bytes_per_second is not None else "-",
                 format_cv(cell, pad)]
    if _has_comparison_columns(comparison, index):
        texts += [format_ratio(cell.ratio) if cell.ratio is not None else ("-" if cell.ok else ""),
                  format_verdict(cell)]
    return texts


def _table(comparison: Comparison, workload: Workload, pad: bool) -> tuple[list[list[str]], list[str]]:
    """Body rows (method + every group's cells) and the failure footnotes of one workload."""
    body, footnotes = [], []
    for row in workload.rows:
        line = [row.key]
        for i, cell in enumerate(row.cells):
            footnote = None
            if cell.status == "failed":
                footnotes.append(f"{comparison.files[i].name}, {row.name}: {cell.error}")
                footnote = len(footnotes)
            line += _cells(comparison, i, cell, footnote, pad)
        body.append(line)
    return body, footnotes


def _any_cv_flag(comparison: Comparison) -> bool:
    return any(c.cv is not None and c.cv >= CV_WARNING
               for w in comparison.workloads for r in w.rows for c in r.cells if c.ok)


def to_console(comparison: Comparison) -> str:
    """Plain-text tables, one per workload, aligned in columns; a header names the files."""
    out = [_baseline_sentence(comparison, md=False), "", "files"]
    width = max(len(f.label) for f in comparison.files)
    name_width = max(len(f.name) for f in comparison.files)
    for i, f in enumerate(comparison.files):
        out.append(f"  {f.label:<{width}}  {f.name:<{name_width}}  {_file_details(comparison, i)}")
    out += [f"note: {n}" for n in comparison.notes]

    groups = [_columns(comparison, i) for i in range(len(comparison.files))]
    for workload in comparison.workloads:
        body, footnotes = _table(comparison, workload, pad=True)
        header = ["method"] + [c + "  " if c == "cv" else c for g in groups for c in g]  # over the padded values
        widths = [max(len(r[k]) for r in body + [header]) for k in range(len(header))]
        # Widen a group's first column when its label is wider than the group.
        start = 1
        for i, g in enumerate(groups):
            span = sum(widths[start:start + len(g)]) + 2 * (len(g) - 1)
            if len(comparison.files[i].label) > span:
                widths[start] += len(comparison.files[i].label) - span
            start += len(g)
        left = {0} | {k for k, name in enumerate(header) if name == "significance"}

        def line(cells: list[str]) -> str:
            parts = [c.ljust(widths[k]) if k in left else c.rjust(widths[k]) for k, c in enumerate(cells)]
            return ("  " + "  ".join(parts)).rstrip()

        titles = [" " * widths[0]]
        start = 1
        for i, g in enumerate(groups):
            span = sum(widths[start:start + len(g)]) + 2 * (len(g) - 1)
            titles.append(comparison.files[i].label.center(span))
            start += len(g)
        out += ["", workload.name]
        if workload.note:
            out.append(f"  ({workload.note})")
        out += [("  " + "  ".join(titles)).rstrip(), line(header)]
        out += [line(r) for r in body]
        out += [f"  ({k}) {text}" for k, text in enumerate(footnotes, 1)]
    if _any_cv_flag(comparison):
        out += ["", CV_LEGEND]
    return "\n".join(out) + "\n"


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(comparison: Comparison) -> str:
    """Markdown: the baseline sentence, the files as a list, one table per workload."""
    out = [_baseline_sentence(comparison, md=True), ""]
    for i, f in enumerate(comparison.files):
        out.append(f"- **{_md_escape(f.label)}**: `{f.name}` ({_file_details(comparison, i)})")
    out += [f"- note: {_md_escape(n)}" for n in comparison.notes]
    for workload in comparison.workloads:
        body, footnotes = _table(comparison, workload, pad=False)
        header, align = ["method"], [":---"]
        for i, f in enumerate(comparison.files):
            for k, col in enumerate(_columns(comparison, i)):
                header.append(f"{f.label}: {col}" if k == 0 else col)
                align.append(":---" if col == "significance" else "---:")
        out += ["", f"### {workload.name}", ""]
        if workload.note:
            out += [f"({workload.note})", ""]
        out.append("| " + " | ".join(_md_escape(h) for h in header) + " |")
        out.append("| " + " | ".join(align) + " |")
        for r in body:
            out.append("| " + " | ".join(_md_escape(c) for c in r) + " |")
        if footnotes:
            out.append("")
            out += [f"- ({k}) {_md_escape(text)}" for k, text in enumerate(footnotes, 1)]
    if _any_cv_flag(comparison):
        out += ["", CV_LEGEND]
    return "\n".join(out) + "\n"


CSV_COLUMNS = ["workload", "benchmark", "method", "file", "label", "status", "error", "repetitions",
               "source", "real_time_s", "cpu_time_s", "bytes_per_second", "items_per_second", "cv",
               "baseline", "ratio", "p_value", "verdict"]


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
                                 _number(cell.items_per_second), _number(cell.cv), row.baseline or "",
                                 _number(cell.ratio), _number(cell.p_value), cell.verdict or ""])
    return buffer.getvalue()
