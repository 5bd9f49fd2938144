"""iobench-compare: compare iobench (Google Benchmark) JSON results across compilers and platforms.

Modules: results (reading and checking the JSON), compare (lining benchmarks up,
medians, ratios, Mann-Whitney U), render (console, Markdown, CSV), plot (charts),
cli (the command line).
"""
