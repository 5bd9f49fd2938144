#!/usr/bin/env bash
# iobench-gate.sh --prefix IOBENCH_PREFIX --target PLUGIN [OPTIONS] BASE_REV HEAD_REV [-- IOBENCH_ARGS...]
# The regression gate of your own methods, for your project's CI and your own
# machine alike (README.md beside this file). Run from your project's git
# checkout, it
#   1. builds the plugin target PLUGIN (iobench_add_plugin) of each commit,
#      in a git worktree of its own (made in a temporary directory, removed on
#      any exit), against the iobench installed in IOBENCH_PREFIX
#      (find_package(iobench): -DCMAKE_PREFIX_PATH=IOBENCH_PREFIX);
#   2. runs IOBENCH_PREFIX/bin/iobench --plugin <that plugin> --suite quick
#      --instructions on each: instructions per item, the same to about 5
#      significant digits from run to run (times are not: two runs of one
#      build differ by tens of percent on a shared machine);
#   3. compares them with iobench-compare BASE.json HEAD.json
#      --fail-on-regression 3: exit status 4 when a benchmark's instructions
#      per item grew by more than 3 %.
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
#                      missing; refused unless empty: nothing is replaced);
#                      default iobench-gate/<base>-<head> (-2, -3, ... when taken)
#   --threshold PCT    the gate's threshold in percent (default 3)
#   --suite NAME       a built-in suite of iobench (default quick)
#   IOBENCH_ARGS       more arguments for both runs, e.g.
#                      --benchmark_filter='/(spdlog_st|spdlog_mt|fwrite|limit)$'
#
# Writes, in DIR: base.json and head.json (the runs' results), comparison.md
# (iobench-compare's tables), gate.txt (the gate's verdict: one line per
# regression or improvement, then the last line) and the logs of each build
# and run. Where perf cannot count instructions (a virtual machine often has no
# counter), iobench runs itself under valgrind: install it.
#
# Exit status: 0 no regression; 4 a regression beyond PCT (gate.txt names each
# benchmark); 2 bad input (usage, an unknown revision, an --out that holds
# files, no iobench in --prefix), or a gate that could judge nothing; 1 a build
# failed; a run that failed exits with iobench's status (1 a benchmark failed,
# 2 iobench refused its input: the plugin, no valgrind); 3 iobench-compare's
# Python dependencies are missing; 128+N interrupted by signal N.
set -euo pipefail

me=$(basename "$0")
usage="usage: $me --prefix IOBENCH_PREFIX --target PLUGIN [--source-dir DIR] [--build-type T] [--compare PATH] [--out DIR] [--threshold PCT] [--suite NAME] BASE_REV HEAD_REV [-- IOBENCH_ARGS...]"
die() { echo "$me: error: $*" >&2; exit 2; }

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
[[ $suite =~ ^[a-z0-9_-]+$ ]] || die "--suite '$suite': give the name of a built-in suite (quick, default, ...)"
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
  here=$(cd "$(dirname "$0")" && pwd -P)
  [ -n "$compare" ] || [ ! -x "$here/../../tools/iobench-compare" ] || compare=$here/../../tools/iobench-compare
  [ -n "$compare" ] || die "no iobench-compare: install it (pip install ./tools in iobench's checkout) or give --compare"
fi
command -v -- "$compare" >/dev/null 2>&1 || die "--compare '$compare': no such program"
set +e
"$compare" --help >/dev/null
status=$?
set -e
[ $status -eq 0 ] || exit $status  # 3: its Python dependencies are missing (it says which)

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

configure=(-DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_PREFIX_PATH="$prefix")
! command -v ninja >/dev/null 2>&1 || configure+=(-G Ninja)

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
  echo "$me: $side ${sha:0:12}: iobench --plugin $target.so --suite $suite --instructions ${iobench_args[*]}"
  set +e
  (cd "$wt" && exec "$iobench" --plugin "$plugin" --suite "$suite" --instructions \
     --benchmark_out="$out/$side.json" "${iobench_args[@]}") >"$out/run-$side.txt" 2>&1
  status=$?
  set -e
  if [ $status -ne 0 ]; then
    tail -n 30 "$out/run-$side.txt" >&2
    echo "$me: $side ${sha:0:12}: iobench exited with $status (output: $out/run-$side.txt)" >&2
    exit $status
  fi
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
echo "$me: comparison: $out/comparison.md; the gate's verdict: $out/gate.txt"
exit $status
