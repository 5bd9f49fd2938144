#!/usr/bin/env bash
# The harness check (docs/methodology.md, "What the harness costs"): alternates
# the standalone ints_out/obuf program and iobench's ints_out/obuf, ROUNDS
# times RUNS runs each, in one directory, and prints each side's median and
# their ratio. Run it on an idle machine from a release build:
#   cmake --preset linux-release -DIOBENCH_BUILD_TESTS=ON && cmake --build --preset linux-release
#   tests/harness/harness-overhead.sh build/linux-release /dev/shm [ROUNDS [RUNS]]
# (the release preset alone builds no tests, and this program is one).
# iobench runs one iteration per repetition (--benchmark_min_time=0.000001),
# so both sides time single runs. Both run with address-space layout
# randomization off (setarch -R, where there is one; IOBENCH_ASLR=1 keeps it
# on): with it, this loop's time depends on where a process's heap and
# tables land, and jumps between processes (55 vs 80 ms here), which would
# drown a difference of a few per cent (docs/methodology.md).
set -euo pipefail
build=${1:?usage: $0 BUILD_DIR DIR [ROUNDS [RUNS]]}
dir=${2:?usage: $0 BUILD_DIR DIR [ROUNDS [RUNS]]}
rounds=${3:-3}
runs=${4:-5}
if [ ! -x "$build/tests/harness/iobench_standalone_ints_out" ]; then
  echo "$0: no $build/tests/harness/iobench_standalone_ints_out: configure with -DIOBENCH_BUILD_TESTS=ON and build" >&2
  exit 2
fi
work=$(mktemp -d "$dir/harness-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
fixed=()
if [ -z "${IOBENCH_ASLR:-}" ] && command -v setarch >/dev/null 2>&1; then fixed=(setarch "$(uname -m)" -R); fi
standalone=()
harness=()
for ((r = 1; r <= rounds; r++)); do
  while read -r t; do standalone+=("$t"); done < <("${fixed[@]}" "$build/tests/harness/iobench_standalone_ints_out" "$work" "$runs" | grep -v median)
  "${fixed[@]}" "$build/iobench" --benchmark_filter='^ints_out/obuf$' --dir "$work" --benchmark_repetitions="$runs" \
    --benchmark_min_time=0.000001 --benchmark_out="$work/out.json" >/dev/null 2>&1
  while read -r t; do harness+=("$t"); done < <(python3 -c '
import json, sys
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    if b["run_type"] == "iteration": print(b["real_time"])' "$work/out.json")
  echo "round $r: standalone ${standalone[*]: -$runs}; iobench ${harness[*]: -$runs} (ms)"
done
python3 - "${standalone[*]}" "${harness[*]}" <<'PY'
import statistics, sys
s = [float(x) for x in sys.argv[1].split()]
h = [float(x) for x in sys.argv[2].split()]
ms, mh = statistics.median(s), statistics.median(h)
print(f"standalone: median {ms:.2f} ms of {len(s)} runs; iobench ints_out/obuf: median {mh:.2f} ms of {len(h)} runs; "
      f"iobench / standalone = {mh / ms:.3f}")
PY
