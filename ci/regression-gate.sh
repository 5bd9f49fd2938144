#!/usr/bin/env bash
# ci/regression-gate.sh [OPTIONS] BASE_REV HEAD_REV
# The regression gate of a change (what the CI workflow's regression-gate job
# runs on a pull request's base and head; it runs the same way locally):
#   1. builds the target `iobench` (Release, -O2) of each commit in a git
#      worktree of its own, made in a temporary directory and removed on any
#      exit (also on a failure or a signal; after SIGKILL a guard process, or
#      else the next run, removes it);
#   2. runs the suite twice on each build: natively (times, percentiles and
#      the system calls per item by kind, `syscalls_*`: exact counts), and
#      with --instructions (instructions per item, the same to about 5
#      significant digits from run to run on a busy machine too:
#      docs/methodology.md; the times of two runs of one build differ by tens
#      of percent: docs/report.md);
#   3. gates each pair with this checkout's tools/iobench-compare
#      (tools/README.md: the gate):
#        BASE-native.json HEAD-native.json --fail-on-regression PCT --gate-on syscalls
#        BASE.json HEAD.json --fail-on-regression PCT --gate-on instructions
#      and exits with the worse verdict of the two.
#
# Options:
#   --out DIR        where the results and the comparison go (created if missing;
#                    refused unless empty: nothing is replaced; refused when
#                    another user owns or may write it or a directory above it,
#                    a sticky directory such as /tmp excepted above it);
#                    default build/regression-gate/<base>-<head> (-2, -3, ... when taken)
#   --threshold PCT  the gate's threshold in percent (default 3)
#   --suite S        a built-in suite of both commits (default quick), or a
#                    suite file (a path ending in .json, as iobench --suite takes)
#   --scale F        multiply the suite's counts by F (default: the suite's own)
# Every argument is checked before anything is built (a suite file: a JSON
# file here, and `iobench --list --suite FILE` of the base's build before the
# head is built or anything runs).
#
# Writes, in DIR (each file created, never replaced): base-native.json,
# head-native.json, base.json and head.json (the runs' results),
# comparison-native.md and comparison.md (iobench-compare's tables of each
# pair), gate.txt (both verdicts: one line per regression or improvement and
# each one's last line, then the verdict of the two) and the logs of each
# build and run (build-base.log, run-base-native.txt, run-base.txt, ...).
# Where perf cannot count instructions (a virtual machine), iobench runs itself
# under valgrind: install it (tools/install-deps.sh does).
#
# A copy of a pinned third-party source beside this checkout
# (../shared/third_party/fast_io or zmij, which the build of this checkout
# takes) is given to both builds, which would otherwise download it.
#
# Exit status: 0 no regression; 4 a regression beyond PCT (gate.txt names
# each benchmark and figure); 2 bad input (usage, an unknown revision or
# suite, an --out that holds files or that another user could change), or a
# gate that could judge nothing or was undecided; 1 a build failed (its log is
# in DIR); a run that failed exits with iobench's status (1 a benchmark
# failed, 2 iobench refused its input, e.g. no valgrind); 3 iobench-compare's
# Python dependencies are missing; 128+N interrupted by signal N (the build
# or run going is ended with the script).
set -euo pipefail

me=ci/regression-gate.sh
usage="usage: $me [--out DIR] [--threshold PCT] [--suite NAME|FILE.json] [--scale F] BASE_REV HEAD_REV"
die() { echo "$me: error: $*" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd -P)
compare=$repo/tools/iobench-compare
# shellcheck source=gate-lib.sh
. "$repo/ci/gate-lib.sh"

out=""
threshold=3
suite=quick
scale=""
revs=()
while [ $# -gt 0 ]; do
  case $1 in
    --out|--threshold|--suite|--scale)
      [ $# -ge 2 ] || die "$1 needs a value; $usage"
      case $1 in
        --out) out=$2 ;;
        --threshold) threshold=$2 ;;
        --suite) suite=$2 ;;
        --scale) scale=$2 ;;
      esac
      shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; revs+=("$@"); break ;;
    -*) die "unknown option '$1'; $usage" ;;
    *) revs+=("$1"); shift ;;
  esac
done
[ ${#revs[@]} -eq 2 ] || die "give two revisions, BASE_REV and HEAD_REV (got ${#revs[@]}); $usage"
[[ $threshold =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--threshold '$threshold': give a percentage of 0 or more"
[ -z "$scale" ] || { [[ $scale =~ ^[0-9]*[.]?[0-9]+([eE][-+]?[0-9]+)?$ ]] && awk "BEGIN { exit !($scale > 0) }"; } \
  || die "--scale '$scale': give a number > 0"
[ -z "$out" ] || [[ $out != -* ]] || die "--out '$out': a directory name may not start with '-'"
suite_file=""
if [[ $suite == ?*.json ]]; then
  # Made absolute (the runs work in the worktrees), its directory's links resolved.
  dir=$(cd -- "$(dirname -- "$suite")" 2>/dev/null && pwd -P) && suite=$dir/$(basename -- "$suite")
  [[ $suite == /* ]] || suite=$PWD/$suite
  [ -f "$suite" ] && [ -r "$suite" ] || die "--suite '$suite': no such readable file"
  python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$suite" 2>/dev/null \
    || die "--suite '$suite': not a JSON file"
  suite_file=$suite
else
  [[ $suite =~ ^[a-z0-9_-]+$ ]] \
    || die "--suite '$suite': give the name of a built-in suite (quick, default, ...) or a suite file (FILE.json)"
fi

# The two revisions, as commits of this repository, each with the built-in suite asked for.
shas=()
for i in 0 1; do
  rev=${revs[$i]}
  what=$([ "$i" -eq 0 ] && echo BASE_REV || echo HEAD_REV)
  [[ $rev =~ ^[A-Za-z0-9._/@^~{}+-]+$ && $rev != -* ]] || die "$what '$rev': not a revision name"
  sha=$(git -C "$repo" rev-parse --verify --quiet --end-of-options "$rev^{commit}") \
    || die "$what '$rev': not a commit of this repository (fetch it first: git fetch origin $rev)"
  [ -n "$suite_file" ] || git -C "$repo" cat-file -e "$sha:suites/$suite.json" 2>/dev/null \
    || die "--suite '$suite': no built-in suite of that name at $what ${sha:0:12} (suites/$suite.json)"
  shas+=("$sha")
done
base=${shas[0]}
head=${shas[1]}

# The comparison tool (this checkout's) must run before anything is built.
set +e
"$compare" --help >/dev/null
status=$?
set -e
[ $status -eq 0 ] || exit $status

if [ -z "$out" ]; then
  out=$repo/build/regression-gate/${base:0:12}-${head:0:12}
  n=1
  candidate=$out
  while [ -e "$candidate" ]; do n=$((n + 1)); candidate=$out-$n; done
  out=$candidate
fi
gate_out_dir --out "$out"
out=$GATE_OUT
set -o noclobber  # every file below is created, never replaced

# The worktrees in a temporary directory of the run's own (gate_start: removed on any exit, the
# leftovers of a killed run by the guard or by the next run), every build and run in a process
# group of its own, ended with the script.
gate_start iobench-regression-gate "$repo"
work=$GATE_WORK

configure=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DIOBENCH_BUILD_TESTS=OFF)
command -v ninja >/dev/null 2>&1 || configure=("${configure[@]:2}")
for name in fast_io zmij; do
  copy=$repo/../shared/third_party/$name
  upper=$(echo "$name" | tr '[:lower:]' '[:upper:]')
  [ ! -d "$copy" ] || configure+=("-DFETCHCONTENT_SOURCE_DIR_$upper=$(cd "$copy" && pwd -P)")
done
run_args=(--suite "$suite")
[ -z "$scale" ] || run_args+=(--scale "$scale")

# Runs "$@" with its output added to the log $1 (its last lines shown on failure).
logged() {
  local log=$1
  shift
  if ! gate_run "$log" "$@"; then
    tail -n 30 "$log" >&2
    echo "$me: failed: $* (log: $log)" >&2
    exit 1
  fi
}

# run SIDE SHA NAME ARGS...: iobench of SIDE's build with ARGS, its results in DIR/NAME.json and
# its output in DIR/run-NAME.txt; a failed run ends the script with iobench's status.
run() {
  local side=$1 sha=$2 name=$3 status=0 t0
  shift 3
  t0=$(seconds)
  gate_run "$out/run-$name.txt" env -C "$work/$side" build/iobench "$@" --benchmark_out="$out/$name.json" \
    || status=$?
  if [ $status -ne 0 ]; then
    tail -n 30 "$out/run-$name.txt" >&2
    echo "$me: $side ${sha:0:12}: iobench $* exited with $status (output: $out/run-$name.txt)" >&2
    exit $status
  fi
  echo "$me: $side ${sha:0:12}: iobench $* ran in $(($(seconds) - t0)) s"
}

seconds() { date +%s; }
start=$(seconds)
for side in base head; do
  sha=$([ $side = base ] && echo "$base" || echo "$head")
  wt=$work/$side
  t0=$(seconds)
  echo "$me: $side ${sha:0:12}: building iobench in a worktree"
  git -C "$repo" worktree add --quiet --detach "$wt" "$sha"
  logged "$out/build-$side.log" cmake -S "$wt" -B "$wt/build" "${configure[@]}"
  logged "$out/build-$side.log" cmake --build "$wt/build" --target iobench
  echo "$me: $side ${sha:0:12}: built in $(($(seconds) - t0)) s"
  # The suite as this build reads it, before anything runs (and, for the base, before the head is built).
  if ! gate_run "$out/list-$side.txt" env -C "$wt" build/iobench --list "${run_args[@]}"; then
    echo "$me: error: --suite '$suite': $side ${sha:0:12}: $(grep -m1 'error' "$out/list-$side.txt" || tail -n 1 "$out/list-$side.txt")" >&2
    exit 2
  fi
  run $side "$sha" "$side-native" "${run_args[@]}"
  run $side "$sha" "$side" "${run_args[@]}" --instructions
  git -C "$repo" worktree remove --force "$wt"
done

# The gate: each pair's tables (Markdown, written whole or not at all) and verdict, then the worse.
gate() {
  local what=$1 native=$2 figure=$3 status=0
  gate_run "$work/gate-$figure.txt" "$compare" "$out/base$native.json" "$out/head$native.json" --format md \
    -o "$out/comparison$native.md" --fail-on-regression "$threshold" --gate-on "$figure" || status=$?
  { echo "== $what (base$native.json, head$native.json): iobench-compare --gate-on $figure, exit $status"
    cat "$work/gate-$figure.txt"; } >>"$work/gate.txt"
  return $status
}
verdict() {
  case $1 in 0) echo passed ;; 4) echo "a regression" ;; 2) echo "could not judge (or undecided)" ;;
    3) echo "iobench-compare's Python dependencies missing" ;; *) echo "failed" ;; esac
}
: >"$work/gate.txt"
syscalls=0
gate "system calls per item, native runs" -native syscalls || syscalls=$?
instructions=0
gate "instructions per item, --instructions runs" "" instructions || instructions=$?
# The worse: a regression found decides; else whatever could not be judged or failed.
status=$instructions
[ $syscalls -eq 0 ] || [ $instructions -eq 4 ] || status=$syscalls
echo "verdict: exit $status: system calls $(verdict $syscalls); instructions $(verdict $instructions)" >>"$work/gate.txt"
# Written whole or not at all: a hard link of the complete file (which fails rather than replace).
cat "$work/gate.txt" >"$out/.gate.txt.partial"
ln -- "$out/.gate.txt.partial" "$out/gate.txt"
rm -f -- "$out/.gate.txt.partial"
cat "$out/gate.txt"
echo "$me: base ${base:0:12}: $out/base-native.json, $out/base.json"
echo "$me: head ${head:0:12}: $out/head-native.json, $out/head.json"
echo "$me: comparison: $out/comparison-native.md, $out/comparison.md; the gate's verdict: $out/gate.txt" \
  "($(($(seconds) - start)) s in all)"
exit $status
