"""iobench-compare: compare iobench (Google Benchmark) JSON results across compilers and platforms.

Modules: results (reading and checking the JSON), compare (lining benchmarks up,
medians, time per run or per item, ratios, Mann-Whitney U, geometric means),
counters (the counter columns), render (console, Markdown and CSV tables with
tabulate), report (the HTML report), plot (Matplotlib charts), export (Bencher
and github-action-benchmark JSON), cli (the command line).
"""

__version__ = "0.2.0"
