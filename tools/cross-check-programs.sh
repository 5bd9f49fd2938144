#!/usr/bin/env bash
# Cross-checks the program methods' own timing (docs/external-methods.md):
# the same Go and Python programs timed from outside as whole processes by
# hyperfine (Debian's package), a process that does one run minus one that
# does none (it starts, says "ready" and ends), against iobench's in-program
# time of the same benchmark. The difference between the two is what the
# first run of a fresh process costs beyond a warm one (iobench's runs follow
# a warm-up run); the whole process's start is in neither.
#
#   tools/cross-check-programs.sh BUILD_DIR DIR [RUNS]
#
# BUILD_DIR: a build of iobench (build/linux-release); DIR: an existing
# directory for the files (a tmpfs one for the steadiest figures); RUNS: of
# each command and of each iobench benchmark (default 10). Prints a Markdown
# table; keeps hyperfine's and iobench's JSON in DIR/cross-check/.
set -euo pipefail

build=${1:?usage: tools/cross-check-programs.sh BUILD_DIR DIR [RUNS]}
dir=${2:?usage: tools/cross-check-programs.sh BUILD_DIR DIR [RUNS]}
runs=${3:-10}
command -v hyperfine >/dev/null || { echo "cross-check: hyperfine not found (apt-get install hyperfine)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "cross-check: python3 not found" >&2; exit 2; }
header=$build/generated/iobench/language_programs.hpp
[ -x "$build/iobench" ] && [ -f "$header" ] || { echo "cross-check: no iobench build in $build" >&2; exit 2; }
out=$dir/cross-check
mkdir -p "$out"

# The command of a language's program, from the header the build generated:
# "interpreter option file", words that are empty left out.
program_of() {
  python3 - "$header" "$1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r'inline constexpr Program ' + sys.argv[2] + r'\{"([^"]*)", "([^"]*)", "([^"]*)"', text)
if not m or not m.group(1):
    sys.exit(1)
print(" ".join(w for w in (m.group(2), m.group(3), m.group(1)) if w))
EOF
}

# The benchmarks: workload, method, language, count, operation and its arguments.
line_suffix=': This is buffered write data'
checks=(
  "ints_out|go_bufio.Writer|go|10000000|put_ints"
  "lines|go_seed_unbuffered|go|100000|put_lines"
  "lines|go_seed_buffered|go|100000|put_lines"
  "ints_out|python_write|python|10000000|put_ints"
  "lines|python_write|python|100000|put_lines"
)

filter=""
for c in "${checks[@]}"; do
  IFS='|' read -r workload method _ _ _ <<<"$c"
  filter+="${filter:+|}${workload}/${method//./\\.}"
done
"$build/iobench" --dir "$dir" --benchmark_filter="^(${filter})\$" --benchmark_repetitions="$runs" \
  --benchmark_min_time=0.01 --benchmark_out="$out/iobench.json" >"$out/iobench.txt" 2>"$out/iobench.err"

printf 'run\n' >"$out/run.txt"
echo "| benchmark | iobench: in-program run (median) | start_time | whole process, one run | whole process, no run | difference | difference / in-program |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for c in "${checks[@]}"; do
  IFS='|' read -r workload method language count operation <<<"$c"
  program=$(program_of "$language") || { echo "| $workload/$method | not built | | | | | |"; continue; }
  target="$dir/cross-check-output"
  words="$program $method $operation $target $count 0"
  if [ "$operation" = put_lines ]; then
    # The suffix ends with a newline: $'...' quoting, hence bash as hyperfine's shell.
    words+=" 'Line ' \$'$line_suffix\\n'"
  fi
  name=${workload}-${method}
  hyperfine --shell bash --style none --warmup 1 --runs "$runs" --export-json "$out/$name.json" \
    "$words <$out/run.txt >/dev/null" "$words </dev/null >/dev/null" >"$out/$name.txt"
  rm -f "$target"
  python3 - "$out/iobench.json" "$workload/$method" "$out/$name.json" <<'EOF'
import json, statistics, sys
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"]
        if b.get("run_name") == sys.argv[2] and b.get("run_type") == "iteration" and not b.get("error_occurred")]
inside = statistics.median(b["real_time"] / 1e3 for b in rows)  # ms -> s
start = statistics.median(b["start_time"] for b in rows)
one, none = (statistics.median(r["times"]) for r in json.load(open(sys.argv[3]))["results"])
diff = one - none
ms = lambda s: f"{s * 1e3:.2f} ms"
print(f"| {sys.argv[2]} | {ms(inside)} | {ms(start)} | {ms(one)} | {ms(none)} | {ms(diff)} | {diff / inside:.2f} |")
EOF
done
