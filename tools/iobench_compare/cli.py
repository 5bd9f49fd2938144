"""The iobench-compare command line."""

from __future__ import annotations

import argparse
import os
import sys

from .compare import compare
from .render import to_console, to_csv, to_markdown
from .results import InputError, ResultFile, default_label, load

PROG = "iobench-compare"

DESCRIPTION = """\
Compare iobench (Google Benchmark) JSON results across files: per workload a table
with methods as rows and one column group per file, showing the median wall time,
throughput, cv, the ratio to a baseline and whether the difference is significant
(two-sided Mann-Whitney U on the repetitions' wall times)."""

EPILOG = """\
examples:
  iobench-compare gcc.json clang.json
  iobench-compare gcc.json clang.json mingw.json --format md > results.md
  iobench-compare gcc.json --baseline-method fprintf,fwrite
  iobench-compare a.json b.json --label a.json=GCC --label b.json=Clang --plot charts/

exit status: 0 done, 2 bad input (a missing or unreadable file, not a benchmark
result, no benchmark in common, an unknown --baseline-method)."""


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error and exit status 2, like every other bad input."""

    def error(self, message):
        fail(message)


def fail(message: str) -> None:
    """Prints `iobench-compare: error: <message>` on stderr and exits with status 2."""
    sys.stderr.write(f"{PROG}: error: {message}\n")
    sys.exit(2)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="+", metavar="FILE.json", help="Google Benchmark JSON written by iobench")
    p.add_argument("--format", choices=("console", "md", "csv"), default="console",
                   help="console table (default), Markdown for a README, or CSV")
    base = p.add_mutually_exclusive_group()
    base.add_argument("--baseline-file", type=int, metavar="N",
                      help="compare every file with file N (1-based; default 1)")
    base.add_argument("--baseline-method", action="append", default=[], metavar="METHOD",
                      help="compare every method with METHOD of the same workload and file instead "
                           "(e.g. fprintf; a comma-separated list or repeated: the first one a workload has)")
    p.add_argument("--label", action="append", default=[], metavar="[FILE=]TEXT",
                   help="column label instead of \"compiler version / OS\" from the context; FILE is a path as "
                        "given, its file name (with or without .json) or a 1-based index; without FILE=, "
                        "the n-th --label names the n-th file")
    p.add_argument("--alpha", type=float, default=0.05, metavar="A",
                   help="significance level of the Mann-Whitney U test (default 0.05)")
    p.add_argument("--plot", metavar="DIR", help="also write charts (PNG and SVG) into DIR")
    p.add_argument("-o", "--output", metavar="FILE", help="write the table to FILE instead of standard output")
    return p


def _file_keys(path: str, index: int) -> set[str]:
    base = os.path.basename(path)
    keys = {path, base, str(index + 1)}
    if base.endswith(".json"):
        keys.add(base[:-5])
    return keys


def apply_labels(files: list[ResultFile], labels: list[str]) -> None:
    """Sets each file's label: --label values, else from the context; equal labels get the file name."""
    for i, f in enumerate(files):
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
    for i, f in enumerate(files):
        if not f.label.strip():
            fail(f"--label: the label of {f.name} is empty")
        same = [g for g in files if g.label == f.label]
        if len(same) > 1:
            for g in same:
                stem = g.name[:-5] if g.name.endswith(".json") else g.name
                g.label = f"{g.label} ({stem})"
    # Same label and file name: number them.
    seen: dict[str, int] = {}
    for f in files:
        seen[f.label] = seen.get(f.label, 0) + 1
        if seen[f.label] > 1:
            f.label = f"{f.label} #{seen[f.label]}"


def main(argv: list[str] | None = None) -> int:
    """Runs the tool; returns the exit status (bad input exits with 2 from fail())."""
    args = _parser().parse_args(argv)
    if not 0 < args.alpha < 1:
        fail(f"--alpha {args.alpha:g}: must be between 0 and 1")
    methods = [m.strip() for value in args.baseline_method for m in value.split(",") if m.strip()]
    if args.baseline_method and not methods:
        fail("--baseline-method: no method given")
    if args.baseline_file is None:
        args.baseline_file = 1
    if not 1 <= args.baseline_file <= len(args.files):
        fail(f"--baseline-file {args.baseline_file}: there are {len(args.files)} files")
    try:
        files = [load(path) for path in args.files]
        apply_labels(files, args.label)
        comparison = compare(files, args.baseline_file - 1, methods, args.alpha)
    except InputError as e:
        fail(str(e))

    render = {"console": to_console, "md": to_markdown, "csv": to_csv}[args.format]
    text = render(comparison)
    if args.plot:
        from .plot import plot  # matplotlib is slow to import: only when asked for

        try:
            plot(comparison, args.plot)
        except OSError as e:
            fail(f"--plot {args.plot}: {e.strerror or e}")
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as f:
                f.write(text)
        except OSError as e:
            fail(f"--output {args.output}: {e.strerror or e}")
    else:
        sys.stdout.write(text)
    return 0
