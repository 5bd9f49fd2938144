"""How a number is written wherever a person reads it, as iobench's console summary writes it.

The specification is tests/data/number_format.json (kinds time, throughput, ratio,
count, bytes, percent), which core/report/number_format.cpp is tested against as well;
tools/tests/test_number_format.py checks every example there against these functions.
"""

from __future__ import annotations

import math


def _round_half_away(value: float) -> int:
    """Rounds to the nearest integer, halves away from zero (C's llround)."""
    return int(math.floor(value + 0.5)) if value >= 0 else -int(math.floor(-value + 0.5))


def format_time(seconds: float) -> str:
    """Wall time: "554.7 us", "2.81 ms", "729 ms", "1.90 s"; below a microsecond "4.21 ns", "28.0 ns"."""
    ms = seconds * 1e3
    if ms >= 1000:
        return f"{seconds:.2f} s"
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 1:
        return f"{ms:.2f} ms"
    if ms >= 0.001:
        return f"{ms * 1e3:.1f} us"
    ns = seconds * 1e9
    if ns >= 100:
        return f"{ns:.0f} ns"
    if ns >= 10:
        return f"{ns:.1f} ns"
    return f"{ns:.2f} ns"


def format_throughput(bytes_per_second: float) -> str:
    """Bytes per wall second in decimal units: "512 B/s", "32.0 kB/s", "154.4 MB/s", "1.27 GB/s"."""
    if bytes_per_second >= 1e9:
        return f"{bytes_per_second / 1e9:.2f} GB/s"
    if bytes_per_second >= 1e6:
        return f"{bytes_per_second / 1e6:.1f} MB/s"
    if bytes_per_second >= 1e3:
        return f"{bytes_per_second / 1e3:.1f} kB/s"
    return f"{bytes_per_second:.0f} B/s"


def format_ratio(ratio: float) -> str:
    """A time ratio: "0.52x" (faster), "9.55x", "12.3x", "123x"."""
    if ratio >= 100:
        return f"{ratio:.0f}x"
    if ratio >= 10:
        return f"{ratio:.1f}x"
    return f"{ratio:.2f}x"


def _grouped(value: float) -> str:
    return f"{_round_half_away(value):,d}"


def format_count(count: float) -> str:
    """A count per run: "8", "12.5", "1,205", "292,969", "16.38 M", "2.50 G"."""
    if count >= 1e9:
        return f"{count / 1e9:.2f} G"
    if count >= 1e6:
        return f"{count / 1e6:.2f} M"
    if count >= 100 or count == math.floor(count):
        return _grouped(count)
    return f"{count:.1f}"


def _three_digits(value: float) -> str:
    """Three significant digits, never in exponent form: "7.89", "64", "1014"."""
    return f"{value:.0f}" if value >= 100 else f"{value:.3g}"


def format_bytes(size: float) -> str:
    """A size in binary units, as buffer sizes are given: "8 B", "7.89 B", "3.99 KiB", "4 KiB", "1 MiB"."""
    for scale, unit in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= scale:
            return f"{_three_digits(size / scale)} {unit}"
    return f"{_three_digits(size)} B"


def format_percent(fraction: float) -> str:
    """A fraction as a percentage with one decimal: 0.062 is "6.2%"."""
    return f"{fraction * 100:.1f}%"


# Every kind of tests/data/number_format.json and its function.
FORMATS = {"time": format_time, "throughput": format_throughput, "ratio": format_ratio, "count": format_count,
           "bytes": format_bytes, "percent": format_percent}
