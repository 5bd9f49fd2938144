"""iobench-compare: compare iobench (Google Benchmark) JSON results across compilers and platforms.

Modules: results (reading and checking the JSON), compare (lining benchmarks up,
medians, time per run or per item, ratios, Mann-Whitney U, geometric means),
counters (the counter columns), render (console, Markdown and CSV tables with
tabulate), report (the HTML report), plot (Matplotlib charts), export (Bencher
and github-action-benchmark JSON), cli (the command line).
"""



def _version() -> str:
    """iobench's version, which is this package's: read from include/iobench/version.hpp, where it is written
    once, when the package runs from iobench's source tree (and when setuptools builds it there: its
    metadata then holds it); from the installed package's metadata otherwise."""
    import os
    import re

    header = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "include", "iobench",
                          "version.hpp")
    try:
        with open(header, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        from importlib import metadata

        try:
            return metadata.version("iobench-compare")
        except metadata.PackageNotFoundError:
            return "unknown"
    parts = [re.search(rf"^#define IOBENCH_VERSION_{part} ([0-9]+)$", text, re.M) for part in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(m.group(1) for m in parts) if all(parts) else "unknown"


__version__ = _version()
