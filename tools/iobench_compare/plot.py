"""Charts of a Comparison with matplotlib (Agg backend, no display needed).

Per workload a grouped bar chart of throughput, methods x files; per parameter
sweep (`/buf:<bytes>` in the names) a line chart of throughput against the
parameter on a log scale, one line per method and file. Each chart is written as
PNG and SVG; the SVG carries no date, so regenerating it changes nothing.
"""

from __future__ import annotations

import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.patches import Patch  # noqa: E402

from .compare import Comparison, Row, Workload, sweeps  # noqa: E402

_PARAM_TITLES = {"buf": "buffer size"}


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)


def _rate(cell) -> float | None:
    """Throughput in bytes/s, or items/s when the benchmark has no byte count."""
    if not cell.ok:
        return None
    return cell.bytes_per_second if cell.bytes_per_second is not None else cell.items_per_second


def _unit(workload_rows: list[Row]) -> tuple[float, str]:
    """Scale and axis label for a chart's rates, from the largest one."""
    cells = [c for r in workload_rows for c in r.cells if _rate(c) is not None]
    in_bytes = any(c.bytes_per_second is not None for c in cells)
    top = max((_rate(c) for c in cells), default=0.0)
    for scale, prefix in ((1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")):
        if top >= scale:
            break
    what = f"{prefix}B/s" if in_bytes else f"{prefix} items/s".strip()
    return scale, f"throughput ({what}, median; higher is better)"


def _save(fig, directory: str, stem: str) -> list[str]:
    paths = []
    for ext, metadata in (("png", {"Software": None}), ("svg", {"Date": None})):
        path = os.path.join(directory, f"{stem}.{ext}")
        fig.savefig(path, format=ext, metadata=metadata, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return paths


def bar_chart(comparison: Comparison, workload: Workload, directory: str) -> list[str]:
    """Grouped bars: one group per method, one bar per file; failed cells get no bar."""
    rows = workload.rows
    files = comparison.files
    scale, ylabel = _unit(rows)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.2 * len(rows) * max(1, len(files)) / 2 + 2), 4.5))
    width = 0.8 / len(files)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for i, f in enumerate(files):
        xs, heights = [], []
        for k, row in enumerate(rows):
            rate = _rate(row.cells[i])
            x = k - 0.4 + width * (i + 0.5)
            if rate is None:
                if row.cells[i].status == "failed":
                    ax.text(x, 0, "FAILED", rotation=90, ha="center", va="bottom", fontsize=8, color="red")
                continue
            xs.append(x)
            heights.append(rate / scale)
        ax.bar(xs, heights, width=width, color=colors[i % len(colors)])
    ax.set_xticks(range(len(rows)))
    crowded = sum(len(r.key) for r in rows) > 40
    ax.set_xticklabels([r.key for r in rows], rotation=30 if crowded else 0, ha="right" if crowded else "center")
    ax.set_ylabel(ylabel)
    ax.set_title(f"{workload.name}: throughput by method")
    ax.grid(axis="y", alpha=0.3)
    ax.set_axisbelow(True)
    # Legend from patches: a file whose every benchmark failed has no bar to take a colour from.
    ax.legend(handles=[Patch(color=colors[i % len(colors)], label=f.label) for i, f in enumerate(files)], fontsize=8)
    return _save(fig, directory, _safe(workload.name))


def sweep_chart(comparison: Comparison, workload: Workload, param: str, rows: list[Row], directory: str) -> list[str]:
    """Throughput against a numeric parameter (log2 x axis): one line per method (and file)."""
    files = comparison.files
    scale, ylabel = _unit(rows)
    # A line is a method with its other parameters fixed, in one file.
    lines: dict[str, list[Row]] = {}
    for row in rows:
        others = "/".join(f"{k}:{v}" for k, v in row.params if k != param)
        lines.setdefault(row.method + ("/" + others if others else ""), []).append(row)
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    markers = "osD^vP*X"
    styles = ["-", "--", ":", "-."]
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for m, (name, line_rows) in enumerate(lines.items()):
        line_rows = sorted(line_rows, key=lambda r: int(dict(r.params)[param]))
        for i, f in enumerate(files):
            points = [(int(dict(r.params)[param]), _rate(r.cells[i])) for r in line_rows]
            points = [(x, y / scale) for x, y in points if y is not None]
            if not points:
                continue
            label = name if len(files) == 1 else f"{name} ({f.label})"
            ax.plot([p[0] for p in points], [p[1] for p in points], label=label, color=colors[m % len(colors)],
                    linestyle=styles[i % len(styles)], marker=markers[i % len(markers)])
    ax.set_xscale("log", base=2)
    values = sorted({int(dict(r.params)[param]) for r in rows})
    ax.set_xticks(values)
    ax.set_xticklabels([str(v) for v in values])
    ax.minorticks_off()
    ax.set_xlabel(_PARAM_TITLES.get(param, param) + (" (bytes)" if param == "buf" else ""))
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    ax.set_title(f"{workload.name}: throughput against {_PARAM_TITLES.get(param, param)}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    return _save(fig, directory, f"{_safe(workload.name)}-{_safe(param)}")


def plot(comparison: Comparison, directory: str) -> list[str]:
    """Writes every chart of the comparison into `directory` (created if missing); returns the paths."""
    os.makedirs(directory, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "iobench-compare"  # stable element ids in the SVG
    paths = []
    for workload in comparison.workloads:
        paths += bar_chart(comparison, workload, directory)
        for param, rows in sweeps(workload).items():
            paths += sweep_chart(comparison, workload, param, rows, directory)
    return paths
