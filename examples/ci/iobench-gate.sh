#!/usr/bin/env bash
# iobench-gate.sh --prefix IOBENCH_PREFIX --target PLUGIN [OPTIONS] BASE_REV HEAD_REV [-- IOBENCH_ARGS...]
# The regression gate of your own methods, for your project's CI and your own
# machine alike (README.md beside this file). Run from your project's git
# checkout, it
#   1. builds the plugin target PLUGIN (iobench_add_plugin) of each commit,
#      in a git worktree of its own (made in a temporary directory, removed on
#      any exit; after SIGKILL a guard process, or else the next run, removes
#      it), against the iobench installed in IOBENCH_PREFIX
#      (find_package(iobench): -DCMAKE_PREFIX_PATH=IOBENCH_PREFIX);
#   2. runs IOBENCH_PREFIX/bin/iobench --plugin <that plugin> --suite quick
#      twice on each: natively (times, percentiles and the system calls per
#      item by kind, `syscalls_*`: exact counts), and with --instructions
#      (instructions per item, the same to about 5 significant digits from
#      run to run; times are not: two runs of one build differ by tens of
#      percent on a shared machine);
#   3. gates each pair with iobench-compare --fail-on-regression 3, by system
#      calls (the native runs: --gate-on syscalls) and by instructions
#      (--gate-on instructions), each requiring a row of every method family
#      the plugin adds (--require FAMILY: a family with no row on either side
#      is not a pass): exit status 4 when a benchmark's system calls or
#      instructions per item grew by more than 3 %.
# The same installed iobench runs both sides: only your methods differ.
#
# Options:
#   --prefix DIR       where iobench is installed (cmake --install ... --prefix DIR)
#   --target NAME      the plugin's target in your CMakeLists.txt
#   --source-dir DIR   the directory of your CMake project inside the repository
#                      (default: its root)
#   --build-type T     CMAKE_BUILD_TYPE of the plugin: iobench's own (default Release)
#   --compare PATH     iobench-compare (default: the one on PATH, else the one of
#                      the iobench checkout this script is in: tools/iobench-compare)
#   --out DIR          where the results and the comparison go (created if
#                      missing; refused unless empty: nothing is replaced;
#                      refused when another user owns or may write it or a
#                      directory above it, a sticky directory such as /tmp
#                      excepted above it); default iobench-gate/<base>-<head>
#                      (-2, -3, ... when taken)
#   --threshold PCT    the gate's threshold in percent (default 3)
#   --suite S          a built-in suite of iobench (default quick), or your own
#                      suite file (a path ending in .json)
#   IOBENCH_ARGS       more arguments for both runs, e.g.
#                      --benchmark_filter='/(spdlog_st|spdlog_mt|fwrite|limit)$'
# Every argument is checked before anything is built (the suite and
# IOBENCH_ARGS by `iobench --list`; a suite file naming your own methods
# once the base's plugin is built, before anything runs).
#
# Writes, in DIR (each file created, never replaced): base-native.json,
# head-native.json, base.json and head.json (the runs' results),
# comparison-native.md and comparison.md (iobench-compare's tables of each
# pair), gate.txt (both verdicts, then the verdict of the two) and the logs
# of each build and run. Where perf cannot count instructions (a virtual
# machine often has no counter), iobench runs itself under valgrind: install it.
#
# Exit status: 0 no regression; 4 a regression beyond PCT (gate.txt names each
# benchmark and figure); 2 bad input (usage, an unknown revision or suite, an
# --out that holds files or that another user could change, no iobench in
# --prefix), or a gate that could judge nothing, was undecided or found no row
# of a family of the plugin; 1 a build failed; a run that failed exits with
# iobench's status (1 a benchmark failed, 2 iobench refused its input: the
# plugin, no valgrind); 3 iobench-compare's Python dependencies are missing;
# 128+N interrupted by signal N (the build or run going is ended with the script).
set -euo pipefail

me=$(basename "$0")
usage="usage: $me --prefix IOBENCH_PREFIX --target PLUGIN [--source-dir DIR] [--build-type T] [--compare PATH] [--out DIR] [--threshold PCT] [--suite NAME|FILE.json] BASE_REV HEAD_REV [-- IOBENCH_ARGS...]"
die() { echo "$me: error: $*" >&2; exit 2; }

here=$(cd "$(dirname "$0")" && pwd -P)
[ -f "$here/../../ci/gate-lib.sh" ] || die "no ci/gate-lib.sh beside this script: run it from iobench's checkout"
# shellcheck source=../../ci/gate-lib.sh
. "$here/../../ci/gate-lib.sh"

prefix=""
target=""
source_dir=.
build_type=Release
compare=""
out=""
threshold=3
suite=quick
revs=()
iobench_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --prefix|--target|--source-dir|--build-type|--compare|--out|--threshold|--suite)
      [ $# -ge 2 ] || die "$1 needs a value; $usage"
      case $1 in
        --prefix) prefix=$2 ;;
        --target) target=$2 ;;
        --source-dir) source_dir=$2 ;;
        --build-type) build_type=$2 ;;
        --compare) compare=$2 ;;
        --out) out=$2 ;;
        --threshold) threshold=$2 ;;
        --suite) suite=$2 ;;
      esac
      shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --) shift; iobench_args=("$@"); break ;;
    -*) die "unknown option '$1'; $usage" ;;
    *) revs+=("$1"); shift ;;
  esac
done
[ ${#revs[@]} -eq 2 ] || die "give two revisions, BASE_REV and HEAD_REV (got ${#revs[@]}); $usage"
[ -n "$prefix" ] || die "--prefix: give where iobench is installed; $usage"
[ -n "$target" ] || die "--target: give the plugin's target (iobench_add_plugin); $usage"
[[ $target =~ ^[A-Za-z0-9_.+-]+$ ]] || die "--target '$target': not a CMake target name"
[[ $build_type =~ ^[A-Za-z0-9_]+$ ]] || die "--build-type '$build_type': not a build type"
[[ $threshold =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--threshold '$threshold': give a percentage of 0 or more"
if [[ $suite == ?*.json ]]; then
  # Made absolute (the runs work in the worktrees), its directory's links resolved.
  dir=$(cd -- "$(dirname -- "$suite")" 2>/dev/null && pwd -P) && suite=$dir/$(basename -- "$suite")
  [[ $suite == /* ]] || suite=$PWD/$suite
else
  [[ $suite =~ ^[a-z0-9_-]+$ ]] \
    || die "--suite '$suite': give the name of a built-in suite (quick, default, ...) or a suite file (FILE.json)"
fi
[[ $source_dir != /* && $source_dir != -* && /$source_dir/ != */../* ]] \
  || die "--source-dir '$source_dir': give a directory inside the repository, relative to its root"
[ -z "$out" ] || [[ $out != -* ]] || die "--out '$out': a directory name may not start with '-'"

iobench=$prefix/bin/iobench
[ -x "$iobench" ] && [ -d "$prefix/lib/cmake/iobench" ] \
  || die "--prefix '$prefix': no installed iobench there (bin/iobench and lib/cmake/iobench/)"
prefix=$(cd -- "$prefix" && pwd -P)
iobench=$prefix/bin/iobench
if [ -z "$compare" ]; then
  compare=$(command -v iobench-compare || true)
  [ -n "$compare" ] || [ ! -x "$here/../../tools/iobench-compare" ] || compare=$here/../../tools/iobench-compare
  [ -n "$compare" ] || die "no iobench-compare: install it (pip install ./tools in iobench's checkout) or give --compare"
fi
command -v -- "$compare" >/dev/null 2>&1 || die "--compare '$compare': no such program"
set +e
"$compare" --help >/dev/null
status=$?
set -e
[ $status -eq 0 ] || exit $status  # 3: its Python dependencies are missing (it says which)

# The suite and IOBENCH_ARGS as the installed iobench reads them, before anything is built. A suite
# file naming the plugin's own methods or workloads is read again with the base's plugin.
status=0
listing=$("$iobench" --list --suite "$suite" "${iobench_args[@]}" 2>&1 </dev/null) || status=$?
why=$(printf '%s\n' "$listing" | grep -m1 'error' || printf '%s\n' "$listing" | tail -n 1)
suite_with_plugin=no
if [ $status -ne 0 ]; then
  if [[ $suite == *.json && $why == *"unknown method"* || $suite == *.json && $why == *"unknown workload"* ]]; then
    suite_with_plugin=yes
  else
    die "iobench --list --suite $suite${iobench_args[*]:+ ${iobench_args[*]}}: ${why#iobench: error: }"
  fi
fi

repo=$(git rev-parse --show-toplevel 2>/dev/null) || die "run it from your project's git checkout"
lists=${source_dir#./}
lists=${lists%/}/CMakeLists.txt
[ "$lists" != ./CMakeLists.txt ] && [ "$lists" != /CMakeLists.txt ] || lists=CMakeLists.txt
shas=()
for i in 0 1; do
  rev=${revs[$i]}
  what=$([ "$i" -eq 0 ] && echo BASE_REV || echo HEAD_REV)
  [[ $rev =~ ^[A-Za-z0-9._/@^~{}+-]+$ && $rev != -* ]] || die "$what '$rev': not a revision name"
  sha=$(git -C "$repo" rev-parse --verify --quiet --end-of-options "$rev^{commit}") \
    || die "$what '$rev': not a commit of $repo (fetch it first: git fetch origin $rev)"
  git -C "$repo" cat-file -e "$sha:$lists" 2>/dev/null || die "$what '$rev': no $lists at ${sha:0:12}"
  shas+=("$sha")
done
base=${shas[0]}
head=${shas[1]}

if [ -z "$out" ]; then
  out=iobench-gate/${base:0:12}-${head:0:12}
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
gate_start iobench-gate "$repo"
work=$GATE_WORK

configure=(-DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_PREFIX_PATH="$prefix")
! command -v ninja >/dev/null 2>&1 || configure+=(-G Ninja)

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

# run SIDE SHA NAME ARGS...: the installed iobench with SIDE's plugin and ARGS, its results in
# DIR/NAME.json and its output in DIR/run-NAME.txt; a failed run ends the script with iobench's status.
run() {
  local side=$1 sha=$2 name=$3 status=0
  shift 3
  echo "$me: $side ${sha:0:12}: iobench --plugin $target.so $*"
  gate_run "$out/run-$name.txt" env -C "$work/$side" "$iobench" --plugin "$plugin" "$@" \
    --benchmark_out="$out/$name.json" || status=$?
  if [ $status -ne 0 ]; then
    tail -n 30 "$out/run-$name.txt" >&2
    echo "$me: $side ${sha:0:12}: iobench exited with $status (output: $out/run-$name.txt)" >&2
    exit $status
  fi
}

# families [--plugin P]: the method families `iobench --list --format md` lists (its methods table).
families() {
  "$iobench" "$@" --list --format md </dev/null 2>/dev/null |
    awk -F'|' '/^\| family \| method \|/ { table = 1; next }
               table && /^\| ---/ { next }
               table && /^\|/ { gsub(/^ +| +$/, "", $2); print $2; next }
               table { exit }' | sort -u
}

requires=()
for side in base head; do
  sha=$([ $side = base ] && echo "$base" || echo "$head")
  wt=$work/$side
  echo "$me: $side ${sha:0:12}: building $target against $prefix"
  git -C "$repo" worktree add --quiet --detach "$wt" "$sha"
  logged "$out/build-$side.log" cmake -S "$wt/$source_dir" -B "$wt/build-iobench-gate" "${configure[@]}"
  logged "$out/build-$side.log" cmake --build "$wt/build-iobench-gate" --target "$target"
  # Wherever the project puts it (a subdirectory, an output directory, a configuration's folder): the
  # one file of that name the build made.
  plugins=$(find "$wt/build-iobench-gate" -name "$target.so" -type f)
  if [ -z "$plugins" ]; then
    echo "$me: $side: the build made no $target.so (log: $out/build-$side.log)" >&2
    exit 1
  elif [ "$(printf '%s\n' "$plugins" | wc -l)" -ne 1 ]; then
    echo "$me: $side: the build made more than one $target.so: $(printf '%s' "$plugins" | tr '\n' ' ')" >&2
    exit 1
  fi
  plugin=$plugins
  if [ $side = base ]; then
    # The families the plugin adds (beside iobench's own): each must have rows on both sides.
    while IFS= read -r family; do
      [ -z "$family" ] || requires+=(--require "$family")
    done < <(comm -13 <(families) <(families --plugin "$plugin"))
  fi
  if [ $suite_with_plugin = yes ] && ! gate_run "$out/list-$side.txt" env -C "$wt" "$iobench" --plugin "$plugin" \
      --list --suite "$suite" "${iobench_args[@]}"; then
    echo "$me: error: iobench --plugin $target.so --list --suite $suite: $(grep -m1 'error' "$out/list-$side.txt" \
      || tail -n 1 "$out/list-$side.txt")" >&2
    exit 2
  fi
  run $side "$sha" "$side-native" --suite "$suite" "${iobench_args[@]}"
  run $side "$sha" "$side" --suite "$suite" --instructions "${iobench_args[@]}"
  git -C "$repo" worktree remove --force "$wt"
done
[ ${#requires[@]} -ne 0 ] || echo "$me: warning: iobench --list --format md names no family of $target.so's own" >&2

# The gate: each pair's tables (Markdown, written whole or not at all) and verdict, then the worse.
gate() {
  local what=$1 native=$2 figure=$3 status=0
  gate_run "$work/gate-$figure.txt" "$compare" "$out/base$native.json" "$out/head$native.json" --format md \
    -o "$out/comparison$native.md" --fail-on-regression "$threshold" --gate-on "$figure" "${requires[@]}" \
    || status=$?
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
echo "$me: comparison: $out/comparison-native.md, $out/comparison.md; the gate's verdict: $out/gate.txt"
exit $status
