#!/usr/bin/env bash
# ci/regression-gate.sh [OPTIONS] BASE_REV HEAD_REV
# The regression gate of a change (what the CI workflow's regression-gate job
# runs on a pull request's base and head; it runs the same way locally):
#   1. builds the target `iobench` (Release, -O2) of each commit in a git
#      worktree of its own, made in a temporary directory and removed on any
#      exit (also on a failure or a signal);
#   2. runs the quick suite with --instructions on each build: instructions
#      per item, the same to about 5 significant digits from run to run on a
#      busy machine too (docs/methodology.md), where the times of two runs of
#      one build differ by tens of percent (docs/report.md);
#   3. compares them with this checkout's tools/iobench-compare BASE.json
#      HEAD.json --fail-on-regression 3 (tools/README.md: the gate).
#
# Options:
#   --out DIR        where the results and the comparison go (created if missing;
#                    refused unless empty: nothing is replaced); default
#                    build/regression-gate/<base>-<head> (-2, -3, ... when taken)
#   --threshold PCT  the gate's threshold in percent (default 3)
#   --suite NAME     a built-in suite of both builds (default quick)
#   --scale F        multiply the suite's counts by F (default: the suite's own)
#
# Writes, in DIR: base.json and head.json (the two runs' results), comparison.md
# (iobench-compare's tables of both), gate.txt (the gate's verdict: one line per
# regression or improvement, then the last line) and the logs of each build
# and run (build-base.log, run-base.txt, ...).
# Where perf cannot count instructions (a virtual machine), iobench runs itself
# under valgrind: install it (tools/install-deps.sh does).
#
# A copy of a pinned third-party source beside this checkout
# (../shared/third_party/fast_io or zmij, which the build of this checkout
# takes) is given to both builds, which would otherwise download it.
#
# Exit status: 0 no regression; 4 a regression beyond PCT (gate.txt names
# each benchmark); 2 bad input (usage, an unknown revision, an --out that holds
# files), or a gate that could judge nothing; 1 a build failed (its log is in
# DIR); a run that failed exits with iobench's status (1 a benchmark failed, 2
# iobench refused its input, e.g. no valgrind); 3 iobench-compare's Python
# dependencies are missing; 128+N interrupted by signal N.
set -euo pipefail

me=ci/regression-gate.sh
usage="usage: $me [--out DIR] [--threshold PCT] [--suite NAME] [--scale F] BASE_REV HEAD_REV"
die() { echo "$me: error: $*" >&2; exit 2; }

repo=$(cd "$(dirname "$0")/.." && pwd -P)
compare=$repo/tools/iobench-compare

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
[[ $suite =~ ^[a-z0-9_-]+$ ]] || die "--suite '$suite': give the name of a built-in suite (quick, default, ...)"
[ -z "$out" ] || [[ $out != -* ]] || die "--out '$out': a directory name may not start with '-'"

# The two revisions, as commits of this repository.
shas=()
for i in 0 1; do
  rev=${revs[$i]}
  what=$([ "$i" -eq 0 ] && echo BASE_REV || echo HEAD_REV)
  [[ $rev =~ ^[A-Za-z0-9._/@^~{}+-]+$ && $rev != -* ]] || die "$what '$rev': not a revision name"
  sha=$(git -C "$repo" rev-parse --verify --quiet --end-of-options "$rev^{commit}") \
    || die "$what '$rev': not a commit of this repository (fetch it first: git fetch origin $rev)"
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
mkdir -p -- "$out" || die "--out '$out': cannot be made"
out=$(cd -- "$out" && pwd -P)
[ -z "$(ls -A -- "$out")" ] || die "--out '$out' is not empty: give another directory (nothing is replaced)"

# The worktrees, removed on any exit.
work=$(mktemp -d "${TMPDIR:-/tmp}/iobench-gate.XXXXXX")
cleanup() {
  local wt
  for wt in "$work/base" "$work/head"; do
    [ ! -d "$wt" ] || git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
  git -C "$repo" worktree prune >/dev/null 2>&1 || true
}
trap cleanup EXIT
for sig in HUP INT QUIT PIPE TERM; do
  # shellcheck disable=SC2064  # the number is the signal's, fixed here
  trap "exit $((128 + $(kill -l "$sig")))" "$sig"
done

configure=(-G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" -DIOBENCH_BUILD_TESTS=OFF)
command -v ninja >/dev/null 2>&1 || configure=("${configure[@]:2}")
for name in fast_io zmij; do
  copy=$repo/../shared/third_party/$name
  upper=$(echo "$name" | tr '[:lower:]' '[:upper:]')
  [ ! -d "$copy" ] || configure+=("-DFETCHCONTENT_SOURCE_DIR_$upper=$(cd "$copy" && pwd -P)")
done
run_args=(--suite "$suite" --instructions)
[ -z "$scale" ] || run_args+=(--scale "$scale")

# Runs "$@" with its output added to the log $1 (its last lines shown on failure).
logged() {
  local log=$1
  shift
  if ! "$@" >>"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "$me: failed: $* (log: $log)" >&2
    exit 1
  fi
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
  t1=$(seconds)
  echo "$me: $side ${sha:0:12}: built in $((t1 - t0)) s; running iobench ${run_args[*]}"
  set +e
  (cd "$wt" && exec build/iobench "${run_args[@]}" --benchmark_out="$out/$side.json") >"$out/run-$side.txt" 2>&1
  status=$?
  set -e
  if [ $status -ne 0 ]; then
    tail -n 30 "$out/run-$side.txt" >&2
    echo "$me: $side ${sha:0:12}: iobench exited with $status (output: $out/run-$side.txt)" >&2
    exit $status
  fi
  echo "$me: $side ${sha:0:12}: ran in $(($(seconds) - t1)) s"
  git -C "$repo" worktree remove --force "$wt"
done

# The gate: the tables (Markdown, written whole or not at all) and its verdict.
set +e
"$compare" "$out/base.json" "$out/head.json" --format md -o "$out/comparison.md" \
  --fail-on-regression "$threshold" 2>"$out/gate.txt.partial"
status=$?
set -e
mv "$out/gate.txt.partial" "$out/gate.txt"
cat "$out/gate.txt"
echo "$me: base ${base:0:12}: $out/base.json"
echo "$me: head ${head:0:12}: $out/head.json"
echo "$me: comparison: $out/comparison.md; the gate's verdict: $out/gate.txt ($(($(seconds) - start)) s in all)"
exit $status
