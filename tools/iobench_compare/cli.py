"""The iobench-compare command line.

Exit status: 0 done; 1 the output could not be written (a full disk, a closed
standard output; an earlier -o file is left whole); 2 bad input (one line
`iobench-compare: error: ...` on stderr); 3 this Python lacks a dependency
(numpy, scipy, matplotlib, tabulate), with what to install; 4 with
--fail-on-regression, a benchmark regressed (gate.py).
"""

from __future__ import annotations

import argparse
import os
import sys

from . import __version__
from . import counters as counter_columns
from .output import Refused, write_file
from .results import InputError, ResultFile, default_label, load

PROG = "iobench-compare"

FORMATS = ("console", "md", "csv", "html", "bencher", "github-action-benchmark")
EXPORTS = ("bencher", "github-action-benchmark")

# Exit statuses besides 0 (done) and 2 (bad input).
EXIT_NOT_WRITTEN = 1  # the output could not be written: a full disk, a closed or broken standard output
EXIT_MISSING_DEPENDENCY = 3
EXIT_REGRESSION = 4  # --fail-on-regression: a benchmark of NEW is worse than BASE beyond the threshold

DESCRIPTION = """\
Compare iobench (Google Benchmark) JSON results across files: per workload a table
with a line per method and file, showing the median time per run (or per item
when the files ran different counts), throughput, cv, x fastest, the counters the
rows carry, the ratio to a baseline and whether the difference is significant
(two-sided Mann-Whitney U on the repetitions' times); an HTML report with charts;
exports for Bencher and github-action-benchmark."""

EPILOG = """\
examples:
  iobench-compare gcc.json clang.json
  iobench-compare gcc.json clang.json mingw.json --format md > results.md
  iobench-compare results/run.json --format html -o results/run.html
  iobench-compare gcc.json --baseline-method fprintf,fwrite --counters write_calls,sys
  iobench-compare quick.json --format bencher -o bencher.json
  iobench-compare base.json new.json --fail-on-regression 5    # a CI gate: exit 4 on a regression

exit status: 0 done, 1 the output could not be written (a full disk, a closed
standard output; an earlier -o FILE stays whole), 2 bad input (a missing,
unreadable or truncated file, a FIFO or device, not a benchmark result, a file
without any result, no benchmark in common, an unknown --baseline-method or
--counters, -o naming an input; -o or --plot naming a link, or another user's
FIFO, device or file, in a directory others can write to), 3 a Python dependency
is missing, 4 --fail-on-regression found a regression (each is a line on stderr:
the benchmark, BASE's and NEW's figure, the change and which figure: instructions
per item where both files count them, else the median time, significant by the
U test at --alpha and beyond PCT)."""


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error and exit status 2, like every other bad input."""

    def error(self, message):
        fail(message)


def fail(message: str, status: int = 2) -> None:
    """Prints `iobench-compare: error: <message>` on stderr and exits with `status` (2: bad input)."""
    _say(f"{PROG}: error: {message}\n")
    sys.exit(status)


def _say(line: str) -> None:
    """Writes a diagnostic line on stderr. A stderr that cannot be written
    (closed, a full disk) loses it and nothing else: the exit status stays
    the documented one."""
    try:
        sys.stderr.write(line)
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        try:  # nothing left for the interpreter to flush at exit
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 2)
            os.close(null)
        except OSError:
            pass


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE.json", help="Google Benchmark JSON written by iobench")
    p.add_argument("--format", choices=FORMATS, default="console",
                   help="console table (default), Markdown for a README, CSV, a self-contained HTML report, "
                        "or JSON for Bencher (Bencher Metric Format) or github-action-benchmark "
                        "(customSmallerIsBetter) from one file")
    base = p.add_mutually_exclusive_group()
    base.add_argument("--baseline-file", type=int, metavar="N",
                      help="compare every file with file N (1-based; default 1)")
    base.add_argument("--baseline-method", action="append", default=[], metavar="METHOD",
                      help="compare every method with METHOD of the same workload and file instead "
                           "(e.g. fprintf; a comma-separated list or repeated: the first one a workload has)")
    p.add_argument("--counters", action="append", metavar="LIST",
                   help="counter columns to show, comma-separated: "
                        + ", ".join(c.key for c in counter_columns.KNOWN)
                        + " (sys: system time %% of the wall time) or any other counter of the files; "
                        "'all' or 'none' (default: " + ", ".join(counter_columns.DEFAULT)
                        + ", each where the rows carry it and it is not 0 in every row)")
    p.add_argument("--label", action="append", default=[], metavar="[FILE=]TEXT",
                   help="label instead of \"compiler version / OS\" from the context; FILE is a path as "
                        "given, its file name (with or without .json) or a 1-based index; without FILE=, "
                        "the n-th --label names the n-th file")
    p.add_argument("--alpha", type=float, default=0.05, metavar="A",
                   help="significance level of the Mann-Whitney U test (default 0.05)")
    p.add_argument("--plot", metavar="DIR", help="also write charts (PNG and SVG) into DIR")
    p.add_argument("--fail-on-regression", type=float, metavar="PCT",
                   help="a gate for CI: BASE.json NEW.json; exit status 4 when a benchmark of NEW is more than PCT "
                        "percent worse: by instructions per item where both count them (--instructions), else by "
                        "its median time where the difference is significant; the changes go to stderr")
    p.add_argument("-o", "--output", metavar="FILE", help="write the output to FILE instead of standard output")
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    return p


def _file_keys(path: str, index: int) -> set[str]:
    base = os.path.basename(path)
    keys = {path, base, str(index + 1)}
    if base.endswith(".json"):
        keys.add(base[:-5])
    return keys


def apply_labels(files: list[ResultFile], labels: list[str]) -> None:
    """Sets each file's label: --label values, else from the context; equal labels get the file name."""
    for f in files:
        f.label = default_label(f.context, f.path)
    positional = 0
    for value in labels:
        key, sep, text = value.partition("=")
        matches = [i for i, f in enumerate(files) if sep and key in _file_keys(f.path, i)]
        if matches:
            for i in matches:
                files[i].label = text
            continue
        if positional >= len(files):
            fail(f"--label {value}: more labels than files ({len(files)})")
        files[positional].label = value
        positional += 1
    for f in files:
        if not f.label.strip():
            fail(f"--label: the label of {f.name} is empty")
    # Equal labels get the file name, once (counted before any is changed).
    labels = [f.label for f in files]
    for f, label in zip(files, labels):
        if labels.count(label) > 1:
            stem = f.name[:-5] if f.name.endswith(".json") else f.name
            f.label = f"{label} ({stem})"
    # Same label and file name: number them.
    seen: dict[str, int] = {}
    for f in files:
        seen[f.label] = seen.get(f.label, 0) + 1
        if seen[f.label] > 1:
            f.label = f"{f.label} #{seen[f.label]}"


def _import_dependencies(charts: bool):
    """The modules that need numpy, scipy and tabulate (and matplotlib for `charts`);
    exit status 3 if one is missing."""
    try:
        from . import compare, render  # noqa: F401  (numpy, scipy, tabulate)

        if charts:
            from . import plot  # noqa: F401  (matplotlib: slow to import, only when needed)
    except ImportError as e:
        fail(f"{e.name or e} is missing from this Python ({sys.executable}): install python3-scipy, "
             "python3-matplotlib and python3-tabulate (tools/install-deps.sh --tools), or `pip install ./tools` "
             "into a virtual environment", EXIT_MISSING_DEPENDENCY)
    return compare, render


def _write_stdout(text: str) -> None:
    """Writes `text` to standard output; exit status 1 with one line when it cannot."""
    if sys.stdout is None:  # started with descriptor 1 closed
        fail("standard output is closed: nothing written (use -o FILE)", EXIT_NOT_WRITTEN)
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (| head): what it wanted, it had. Python must
        # not try to flush again at exit.
        _discard_stdout()
        sys.exit(EXIT_NOT_WRITTEN)
    except OSError as e:
        _discard_stdout()
        fail(f"writing to standard output failed: {e.strerror or e}", EXIT_NOT_WRITTEN)


def _discard_stdout() -> None:
    """Points descriptor 1 at the null device, so that the interpreter's own
    flush at exit has nowhere to fail."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def _write(path: str | None, text: str) -> None:
    """Writes the output to `path` (standard output when None) by
    output.write_file's rules: a regular file is replaced in one step keeping
    its mode, so an earlier report survives a full disk whole; a FIFO or device
    is written through; a link, FIFO, device or file that another user may have
    planted in a directory others can write to is refused (exit status 2)."""
    if not path:
        _write_stdout(text)
        return
    try:
        write_file(path, text.encode("utf-8"))
    except Refused as e:
        fail(f"--output {e}")
    except OSError as e:
        fail(f"--output {path}: {e.strerror or e}; nothing replaced", EXIT_NOT_WRITTEN)


def _check_output_is_not_an_input(output: str | None, files: list[str]) -> None:
    """Bad input when -o names one of the input files (also through a link)."""
    if not output or not os.path.exists(output):
        return
    for path in files:
        try:
            same = os.path.samefile(output, path)
        except OSError:
            continue
        if same:
            fail(f"--output {output}: is the input file {path}: it would be overwritten")


def main(argv: list[str] | None = None) -> int:
    """Runs the tool; returns the exit status (bad input exits with 2 from fail())."""
    args = _parser().parse_args(argv)
    if not 0 < args.alpha < 1:
        fail(f"--alpha {args.alpha:g}: must be between 0 and 1")
    methods = [m.strip() for value in args.baseline_method for m in value.split(",") if m.strip()]
    if args.baseline_method and not methods:
        fail("--baseline-method: no method given")
    counters = None
    if args.counters is not None:
        counters = [c.strip() for value in args.counters for c in value.split(",") if c.strip()]
        if not counters:
            fail("--counters: no counter given")
        if len(counters) > 1 and ({"all", "none"} & set(counters)):
            fail(f"--counters {','.join(counters)}: 'all' and 'none' stand alone")
    if args.baseline_file is None:
        args.baseline_file = 1
    if not 1 <= args.baseline_file <= len(args.files):
        fail(f"--baseline-file {args.baseline_file}: there are {len(args.files)} files")
    gate_threshold = None
    if args.fail_on_regression is not None:
        pct = args.fail_on_regression
        if not pct >= 0 or pct != pct or pct == float("inf"):
            fail(f"--fail-on-regression {pct:g}: give a percentage of 0 or more")
        if len(args.files) != 2:
            fail(f"--fail-on-regression compares two files, BASE.json NEW.json (got {len(args.files)})")
        if methods or args.baseline_file != 1:
            fail("--fail-on-regression compares NEW with BASE, the first file: not with --baseline-method or "
                 "--baseline-file")
        gate_threshold = pct / 100
    _check_output_is_not_an_input(args.output, args.files)
    if args.format in EXPORTS and len(args.files) != 1:
        fail(f"--format {args.format} exports one result file (got {len(args.files)})")
    compare, render = _import_dependencies(charts=args.format == "html" or bool(args.plot))
    try:
        files = [load(path) for path in args.files]
        apply_labels(files, args.label)
        comparison = compare.compare(files, args.baseline_file - 1, methods, args.alpha, counters)
    except InputError as e:
        fail(str(e))

    if args.format in EXPORTS:
        from . import export

        text = export.to_bencher(comparison) if args.format == "bencher" else export.to_github_action_benchmark(
            comparison)
        for what in export.left_out(comparison):
            _say(f"{PROG}: warning: left out of the export: {what}\n")
    elif args.format == "html":
        from .report import to_html

        text = to_html(comparison)
    else:
        text = {"console": render.to_console, "md": render.to_markdown, "csv": render.to_csv}[args.format](
            comparison)
    if args.plot:
        from .plot import plot

        try:
            plot(comparison, args.plot)
        except Refused as e:
            fail(f"--plot {e}")
        except OSError as e:
            fail(f"--plot {args.plot}: {e.strerror or e}")
    _write(args.output, text)
    if gate_threshold is not None:
        from .gate import gate, report

        result = gate(comparison, gate_threshold)
        _say(report(result))
        if result.regressions:
            return EXIT_REGRESSION
        if not result.tested:
            return 2  # a gate that judged nothing must not pass
    return 0
