"""The iobench-compare command line.

Exit status: 0 done; 1 the output could not be written (a full disk, a closed
standard output; an earlier -o file is left whole), or the history could not be
written (another writer held it too long); 2 bad input (one line
`iobench-compare: error: ...` on stderr); 3 this Python lacks a dependency
(numpy, scipy, matplotlib, tabulate; with --history also SQLAlchemy and,
for PostgreSQL, psycopg2), with what to install; 4 with --fail-on-regression, a
benchmark regressed (gate.py; 2 there also for a row not measured or
undecided, and for bad rows).
"""

from __future__ import annotations

import argparse
import os
import sys

from . import __version__
from . import counters as counter_columns
from .output import Refused, check_file, write_file
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
exports for Bencher and github-action-benchmark; a history of runs in SQLite or
PostgreSQL with the change points of each benchmark (--history)."""

EPILOG = """\
examples:
  iobench-compare gcc.json clang.json
  iobench-compare gcc.json clang.json mingw.json --format md > results.md
  iobench-compare results/run.json --format html -o results/run.html
  iobench-compare gcc.json --baseline-method fprintf,fwrite --counters write_calls,sys
  iobench-compare quick.json --format bencher -o bencher.json
  iobench-compare base.json new.json --fail-on-regression 5    # a CI gate: exit 4 on a regression
  iobench-compare base.json new.json --fail-on-regression 3 --require mylog --gate-on instructions,syscalls,p99
  iobench-compare --history results/history.sqlite --add results/run.json    # label: your project's git describe
  iobench-compare --history results/history.sqlite                # its series and regressions
  iobench-compare --history results/history.sqlite --format html -o history.html
  iobench-compare --history postgresql://ci@db/iobench --add --label v1.2 run.json

exit status: 0 done, 1 the output could not be written (a full disk, a closed
standard output; an earlier -o FILE stays whole), 2 bad input (a missing,
unreadable or truncated file, a FIFO or device, not a benchmark result, a file
without any result, no benchmark in common, an unknown --baseline-method or
--counters, -o naming an input; -o or --plot naming a link, or another user's
FIFO, device or file, in a directory others can write to), 3 a Python dependency
is missing, 4 --fail-on-regression found a regression (each is a line on stderr:
the benchmark, BASE's and NEW's figure, the change and which figure: by --gate-on,
instructions and system calls per item where both files count them, else the
median time, significant by the U test at --alpha and beyond PCT); with the gate
also 2 for a row of BASE not measured in NEW, a --require or a plugin's family
without rows, an undecided time (--undecided pass|fail: 0 or 4) and bad rows.
With --history: 2 also for a database that is not a history of this version (not
SQLite, other tables, another schema version, damaged: refused, left as it is)
or cannot be reached, and for options of the comparison; 1 when another writer
held the history's lock for 60 s."""


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
    p.add_argument("files", nargs="*", metavar="FILE.json", help="Google Benchmark JSON written by iobench")
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
    p.add_argument("--alpha", type=float, metavar="A",
                   help="significance level of the Mann-Whitney U test (default 0.05)")
    p.add_argument("--plot", metavar="DIR", help="also write charts (PNG and SVG) into DIR")
    p.add_argument("--fail-on-regression", type=float, metavar="PCT",
                   help="a gate for CI: BASE.json NEW.json; exit status 4 when a benchmark of NEW is more than PCT "
                        "percent worse by the figures of --gate-on; 2 when a row of BASE has no row in NEW, a "
                        "--require or a plugin's family has no row, or a row is undecided; the verdict goes to "
                        "stderr, its last line how many rows it judged by which figure")
    p.add_argument("--gate-on", metavar="LIST",
                   help="with --fail-on-regression: the figures to judge, comma-separated, of "
                        "instructions (per item), syscalls (system calls per item by kind), time (the median), "
                        "p50, p99, p99.9 (per-call latency); default instructions,syscalls (a row with neither in "
                        "both files: its median time)")
    p.add_argument("--require", action="append", default=[], metavar="NAME",
                   help="with --fail-on-regression: fail unless method or family NAME has rows in both files and "
                        "one is judged (repeatable, or comma-separated)")
    p.add_argument("--undecided", choices=("pass", "fail"),
                   help="with --fail-on-regression: what an undecided row does (a time the U test could not decide "
                        "while its ratio is beyond PCT, or too few repetitions to test): pass (exit 0) or fail "
                        "(exit 4); default exit 2")
    p.add_argument("--history", metavar="DB",
                   help="a history of runs: a file of one's own (SQLite, created by the first --add; never "
                        "through a link, nor another user's file), sqlite:///PATH or "
                        "postgresql://USER@HOST/NAME; alone it lists its series and the change points where a "
                        "benchmark got slower (or faster), with the commit range; with --format html a page of "
                        "charts")
    p.add_argument("--add", action="store_true",
                   help="with --history: add the FILE.json arguments as runs labelled --label (one label, the "
                        "project's commit; default: git describe --always --dirty in the git repository of the "
                        "current directory, required in iobench's own checkout); a file added before is left "
                        "as it is")
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


def _import_history(html: bool):
    """The history's modules (SQLAlchemy; Matplotlib for `html`); exit status 3 if one is missing."""
    try:
        from . import history, history_report  # noqa: F401  (sqlalchemy)

        if html:
            from . import plot  # noqa: F401  (matplotlib)
    except ImportError as e:
        fail(f"{e.name or e} is missing from this Python ({sys.executable}): --history needs SQLAlchemy: "
             "install python3-sqlalchemy (tools/install-deps.sh --tools), or "
             "`pip install './tools[history]'` into a virtual environment", EXIT_MISSING_DEPENDENCY)
    return history, history_report


def _driver_missing(e: ImportError) -> None:
    """A database's driver (psycopg2 for PostgreSQL) is not installed: exit status 3."""
    fail(f"{e.name or e} is missing from this Python ({sys.executable}): a PostgreSQL history needs psycopg2: "
         "install python3-psycopg2 (tools/install-deps.sh --tools), or `pip install './tools[postgresql]'`",
         EXIT_MISSING_DEPENDENCY)


def _comparison_options(args) -> list[str]:
    """The options of a comparison given on this command line, which a history does not take."""
    given = [("--baseline-file", args.baseline_file is not None), ("--baseline-method", bool(args.baseline_method)),
             ("--counters", args.counters is not None), ("--alpha", args.alpha is not None),
             ("--plot", args.plot is not None), ("--fail-on-regression", args.fail_on_regression is not None),
             ("--gate-on", args.gate_on is not None), ("--require", bool(args.require)),
             ("--undecided", args.undecided is not None)]
    return [option for option, present in given if present]


def _gate_options(args, gating: bool) -> tuple[tuple[str, ...], list[str]]:
    """--gate-on and --require, checked (they, and --undecided, go with --fail-on-regression only)."""
    from .gate import DEFAULT_FIGURES, FIGURES

    if not gating:
        for option, given in (("--gate-on", args.gate_on is not None), ("--require", bool(args.require)),
                              ("--undecided", args.undecided is not None)):
            if given:
                fail(f"{option}: an option of the gate: give --fail-on-regression PCT")
        return DEFAULT_FIGURES, []
    figures = DEFAULT_FIGURES
    if args.gate_on is not None:
        figures = tuple(dict.fromkeys(f.strip() for f in args.gate_on.split(",") if f.strip()))
        unknown = [f for f in figures if f not in FIGURES]
        if unknown or not figures:
            fail(f"--gate-on {args.gate_on}: " + (f"no figure {', '.join(unknown)}" if unknown else "no figure given")
                 + f" (figures: {', '.join(FIGURES)})")
    required = list(dict.fromkeys(n.strip() for value in args.require for n in value.split(",") if n.strip()))
    if args.require and not required:
        fail("--require: no method or family given")
    return figures, required


def _history(args) -> int:
    """--history DB [--add FILE... [--label L]]: adds result files to the history, or writes what it holds."""
    options = _comparison_options(args)
    if options:
        fail(f"{options[0]}: an option of a comparison of result files, not of --history")
    if args.format in EXPORTS:
        fail(f"--format {args.format}: --history writes console, md, csv or html")
    history, history_report = _import_history(html=args.format == "html" and not args.add)
    from .results import load

    try:
        db = history.database(args.history)
    except InputError as e:
        fail(str(e))
    if args.add:
        if not args.files:
            fail("--add: no result file given (--history DB --add FILE.json...)")
        if args.output or args.format != "console":
            fail(f"{'-o' if args.output else '--format'}: --add writes into the history, nothing else")
        if len(args.label) > 1:
            fail(f"--label: one label for the runs added (the project's commit), not {len(args.label)}")
        try:
            label = history.check_label(args.label[0]) if args.label else history.default_label()
            new_runs = []
            for path in args.files:
                loaded = load(path)
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                except OSError as e:
                    raise InputError(f"{path}: {e.strerror or e}") from None
                new_runs.append(history.prepare(loaded, data, label))
            added = history.add(db, new_runs)
        except InputError as e:
            fail(str(e))
        except history.NotWritten as e:
            fail(str(e), EXIT_NOT_WRITTEN)
        except ImportError as e:
            _driver_missing(e)
        lines = [f"{a.file}: added to the history as run {a.run_id} (label {a.label})" if a.new else
                 f"{a.file}: already in the history as run {a.run_id} (label {a.label}): nothing added"
                 for a in added]
        _write_stdout("\n".join(lines) + "\n")
        return 0
    if args.files:
        fail(f"{args.files[0]}: with --history, result files are added with --add (without files it writes what "
             "the history holds)")
    if args.label:
        fail("--label: labels the runs added with --add")
    if db.path is not None:
        _check_output_is_not_an_input(args.output, [db.path])
    if args.output:
        try:
            check_file(args.output)
        except Refused as e:
            fail(f"--output {e}")
    try:
        text = history_report.render(history.read(db), args.format)
    except InputError as e:
        fail(str(e))
    except history.NotWritten as e:  # (a reader waited for a writer's lock too long)
        fail(str(e), EXIT_NOT_WRITTEN)
    except ImportError as e:
        _driver_missing(e)
    _write(args.output, text)
    return 0


def _baseline_methods(args) -> list[str]:
    """--baseline-method's methods, checked: comma-separated or repeated."""
    methods = [m.strip() for value in args.baseline_method for m in value.split(",") if m.strip()]
    if args.baseline_method and not methods:
        fail("--baseline-method: no method given")
    return methods


def _counters(args) -> list[str] | None:
    """--counters' keys, checked (None when not given): comma-separated or repeated; 'all' and 'none' alone."""
    if args.counters is None:
        return None
    counters = [c.strip() for value in args.counters for c in value.split(",") if c.strip()]
    if not counters:
        fail("--counters: no counter given")
    if len(counters) > 1 and ({"all", "none"} & set(counters)):
        fail(f"--counters {','.join(counters)}: 'all' and 'none' stand alone")
    return counters


def _gate_threshold(args, methods: list[str]) -> float | None:
    """--fail-on-regression's threshold as a fraction (None without it), checked against the files and baseline."""
    if args.fail_on_regression is None:
        return None
    pct = args.fail_on_regression
    if not pct >= 0 or pct != pct or pct == float("inf"):
        fail(f"--fail-on-regression {pct:g}: give a percentage of 0 or more")
    if len(args.files) != 2:
        fail(f"--fail-on-regression compares two files, BASE.json NEW.json (got {len(args.files)})")
    if methods or args.baseline_file != 1:
        fail("--fail-on-regression compares NEW with BASE, the first file: not with --baseline-method or "
             "--baseline-file")
    return abs(pct) / 100  # (-0 is 0)


def _output_text(comparison, output_format: str, render) -> str:
    """The comparison in --format: a table, the HTML report or an export (warning on stderr of what it leaves out)."""
    if output_format in EXPORTS:
        from . import export

        text = export.to_bencher(comparison) if output_format == "bencher" else export.to_github_action_benchmark(
            comparison)
        for what in export.left_out(comparison):
            _say(f"{PROG}: warning: left out of the export: {what}\n")
    elif output_format == "html":
        from .report import to_html

        text = to_html(comparison)
    else:
        text = {"console": render.to_console, "md": render.to_markdown, "csv": render.to_csv}[output_format](
            comparison)
    return text


def _write_plots(comparison, directory: str) -> None:
    """--plot DIR: writes the comparison's charts into DIR; bad input (exit status 2) when they cannot be."""
    from .plot import plot

    try:
        plot(comparison, directory)
    except Refused as e:
        fail(f"--plot {e}")
    except OSError as e:
        fail(f"--plot {directory}: {e.strerror or e}")


def _run_gate(comparison, args, threshold: float, figures: tuple[str, ...], required: list[str]) -> int:
    """--fail-on-regression: judges NEW against BASE, writes the verdict on stderr; returns the exit status."""
    from .gate import gate, report, status

    undecided = args.undecided or "error"
    result = gate(comparison, threshold, figures, required, args.alpha)
    from .pins import differences

    moved = differences()
    if moved:
        result.notes.append(f"this Python has {', '.join(moved)}: the p-values and medians may differ from "
                            "those of the versions tested (tools/constraints.txt)")
    _say(report(result, undecided))
    return status(result, undecided)


def main(argv: list[str] | None = None) -> int:
    """Runs the tool; returns the exit status (bad input exits with 2 from fail())."""
    args = _parser().parse_args(argv)
    if args.history is not None:
        return _history(args)
    if args.add:
        fail("--add: adds result files to a history: give --history DB")
    if not args.files:
        fail("the following arguments are required: FILE.json")
    if args.alpha is None:
        args.alpha = 0.05
    if not 0 < args.alpha < 1:
        fail(f"--alpha {args.alpha:g}: must be between 0 and 1")
    methods = _baseline_methods(args)
    counters = _counters(args)
    if args.baseline_file is None:
        args.baseline_file = 1
    if not 1 <= args.baseline_file <= len(args.files):
        fail(f"--baseline-file {args.baseline_file}: there are {len(args.files)} files")
    gate_threshold = _gate_threshold(args, methods)
    gate_figures, required = _gate_options(args, gate_threshold is not None)
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

    text = _output_text(comparison, args.format, render)
    if args.plot:
        _write_plots(comparison, args.plot)
    _write(args.output, text)
    if gate_threshold is not None:
        return _run_gate(comparison, args, gate_threshold, gate_figures, required)
    return 0
