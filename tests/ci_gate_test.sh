#!/usr/bin/env bash
# tests/ci_gate_test.sh SCENARIO SOURCE_DIR WORKDIR [IOBENCH_BUILD_DIR IOBENCH BUILD_TYPE]
# The regression gate's scripts (ci/regression-gate.sh, examples/ci/iobench-gate.sh)
# on real git repositories, real builds and real runs. Each scenario exits
# non-zero with a message when the script does not do what it says; 77
# (skipped) with the reason when this machine cannot run it.
#   refused          bad input: one line on stderr, exit 2, no worktree, nothing left
#   build_failed     a commit that does not configure: exit 1, its log kept, worktrees removed
#   signal           SIGTERM in the middle of a build: exit 143, worktrees removed
#   example_refused  examples/ci/iobench-gate.sh's bad input (before a revision is read)
#   example          examples/ci/iobench-gate.sh on two commits of a user's project
#                    (examples/out-of-tree), the second one's spdlog_st doing more
#                    work per integer: exit 4 naming it, and no other benchmark;
#                    bad revisions refused
#                    (needs an iobench that counts instructions: not a sanitized build
#                    without a hardware counter)
set -uo pipefail
scenario=$1
source=$(cd "$2" && pwd -P)
work=$3/$scenario
rm -rf "$work"
mkdir -p "$work/tmp"
export TMPDIR=$work/tmp
cd "$work" || exit 1

fail() { echo "FAIL: $*" >&2; [ -f err ] && { echo "--- stderr:" >&2; cat err >&2; }; exit 1; }
command -v git >/dev/null 2>&1 || { echo "skipped: no git" >&2; exit 77; }

# A git repository of its own in $1, committed as "$2", its author fixed.
git_repo() {
  git -C "$1" init -q
  git -C "$1" add -A
  git -C "$1" -c user.name=test -c user.email=test@example.invalid commit -q -m "$2"
}
commit() {
  git -C "$1" add -A
  git -C "$1" -c user.name=test -c user.email=test@example.invalid commit -q -m "$2"
}

# Nothing of a run is left: one worktree (the repository's own), an empty TMPDIR.
nothing_left() {
  local n
  n=$(git -C "$1" worktree list | wc -l)
  [ "$n" -eq 1 ] || fail "worktrees left: $(git -C "$1" worktree list)"
  [ -z "$(ls -A "$TMPDIR")" ] || fail "left in TMPDIR: $(ls -A "$TMPDIR")"
}

# Runs the script "$@" expecting exit 2 and one line on stderr matching $expected.
refused() {
  local expected=$1 status lines
  shift
  "$@" >out 2>err
  status=$?
  [ $status -eq 2 ] || fail "$* exited with $status, not 2"
  lines=$(wc -l <err)
  [ "$lines" -eq 1 ] || fail "$*: $lines lines on stderr, not one"
  grep -Eq -- "$expected" err || fail "$*: stderr does not say '$expected'"
}

# A repository holding this checkout's ci/regression-gate.sh (and tools/, which
# it runs), so that the script works on that repository's commits.
gate_repo() {
  mkdir -p repo/ci
  cp "$source/ci/regression-gate.sh" repo/ci/
  ln -s "$source/tools" repo/tools
  printf 'cmake_minimum_required(VERSION 3.25)\nproject(p NONE)\n%s\n' "$1" >repo/CMakeLists.txt
  git_repo repo "first"
}

case $scenario in
refused)
  gate_repo ""
  g=repo/ci/regression-gate.sh
  e="^ci/regression-gate.sh: error: "
  refused "${e}give two revisions.*\(got 0\)" $g
  refused "${e}give two revisions.*\(got 1\)" $g HEAD
  refused "${e}give two revisions.*\(got 3\)" $g HEAD HEAD HEAD
  refused "${e}BASE_REV 'nosuch': not a commit of this repository" $g nosuch HEAD
  refused "${e}HEAD_REV '0123456789abcdef0123456789abcdef01234567': not a commit" $g HEAD 0123456789abcdef0123456789abcdef01234567
  refused "${e}BASE_REV 'HEAD:CMakeLists.txt': not a revision name" $g HEAD:CMakeLists.txt HEAD
  refused "${e}HEAD_REV 'HEAD x': not a revision name" $g HEAD "HEAD x"
  refused "${e}BASE_REV '\\$\\(id\\)': not a revision name" $g '$(id)' HEAD
  refused "${e}unknown option '-x'" $g HEAD -x
  refused "${e}unknown option '--upload-pack=x'" $g --upload-pack=x HEAD HEAD
  refused "${e}--threshold 'x': give a percentage" $g --threshold x HEAD HEAD
  refused "${e}--threshold '-1': give a percentage" $g --threshold -1 HEAD HEAD
  refused "${e}--scale '0': give a number > 0" $g --scale 0 HEAD HEAD
  refused "${e}--scale '1e-400x': give a number > 0" $g --scale 1e-400x HEAD HEAD
  refused "${e}--suite '../quick': give the name of a built-in suite" $g --suite ../quick HEAD HEAD
  refused "${e}--out needs a value" $g HEAD HEAD --out
  mkdir -p full && echo kept >full/base.json
  refused "${e}--out '.*full' is not empty" $g --out full HEAD HEAD
  [ "$(cat full/base.json)" = kept ] || fail "--out's file was changed"
  nothing_left repo
  ;;
build_failed)
  gate_repo 'message(FATAL_ERROR "this commit does not configure")'
  repo/ci/regression-gate.sh --out o HEAD HEAD >out 2>err
  status=$?
  [ $status -eq 1 ] || fail "a commit that does not configure: exit $status, not 1"
  grep -q "this commit does not configure" o/build-base.log || fail "o/build-base.log does not hold the error"
  grep -q "failed: cmake .*log: .*o/build-base.log" err || fail "stderr does not name the log"
  [ ! -e o/base.json ] && [ ! -e o/gate.txt ] || fail "results of a build that failed: $(ls o)"
  nothing_left repo
  ;;
signal)
  command -v pgrep >/dev/null 2>&1 || { echo "skipped: no pgrep (procps)" >&2; exit 77; }
  gate_repo 'execute_process(COMMAND sleep 120)'
  # In a process group of its own, signalled as a terminal or a CI runner
  # signals it: the script and the configure under it.
  set -m
  repo/ci/regression-gate.sh --out o HEAD HEAD >out 2>err &
  pid=$!
  set +m
  for _ in $(seq 300); do
    pgrep -g $pid -x sleep >/dev/null && break
    sleep 0.1
  done
  pgrep -g $pid -x sleep >/dev/null || fail "the configure did not start in 30 s"
  [ "$(git -C repo worktree list | wc -l)" -eq 2 ] || fail "no worktree while the configure runs"
  kill -TERM -- -$pid
  wait $pid
  status=$?
  [ $status -eq 143 ] || fail "SIGTERM: exit $status, not 143"
  nothing_left repo
  ;;
example_refused)
  mkdir -p repo prefix/bin prefix/lib/cmake/iobench
  cp "$source/examples/out-of-tree/CMakeLists.txt" repo/
  git_repo repo "first"
  g=$source/examples/ci/iobench-gate.sh
  e="^iobench-gate.sh: error: "
  cd repo || exit 1
  refused "${e}give two revisions.*\(got 0\)" "$g" --prefix ../prefix --target t
  refused "${e}--prefix: give where iobench is installed" "$g" --target t HEAD HEAD
  refused "${e}--target: give the plugin's target" "$g" --prefix ../prefix HEAD HEAD
  refused "${e}--target 'a b': not a CMake target name" "$g" --prefix ../prefix --target "a b" HEAD HEAD
  refused "${e}--prefix '../nowhere': no installed iobench there" "$g" --prefix ../nowhere --target t HEAD HEAD
  refused "${e}--prefix '../prefix': no installed iobench there" "$g" --prefix ../prefix --target t HEAD HEAD
  refused "${e}--source-dir '../x': give a directory inside the repository" "$g" --prefix ../prefix --target t \
    --source-dir ../x HEAD HEAD
  refused "${e}unknown option '--bogus'" "$g" --bogus HEAD HEAD
  cd .. && nothing_left repo
  ;;
example)
  build=$4
  iobench=$5
  build_type=$6
  # Can this build count instructions? (Not a sanitized build without perf.)
  "$iobench" --instructions "--benchmark_filter=^hello/limit$" --scale 0.0001 --dir "$TMPDIR" >probe 2>&1
  status=$?
  if [ $status -eq 2 ]; then
    echo "skipped: this iobench cannot count instructions: $(grep error probe | head -1)" >&2
    exit 77
  fi
  [ $status -eq 0 ] || { cat probe >&2; fail "iobench --instructions exited with $status"; }
  cmake --install "$build" --prefix prefix >install.log 2>&1 || { cat install.log >&2; fail "cmake --install"; }
  # The user's project: examples/out-of-tree at its root; then a commit whose
  # spdlog_st formats each integer as before and then runs a loop of 100
  # empty iterations (a few hundred instructions an integer more).
  mkdir repo
  cp "$source/examples/out-of-tree/CMakeLists.txt" "$source/examples/out-of-tree/spdlog_family.cpp" repo/
  git_repo repo "the methods"
  f=repo/spdlog_family.cpp
  sed -i 's|^constexpr Calls st_calls{|void slower_put_ints(const Sink\& sink, std::uint64_t count) {\
    put_ints<spdlog::sinks::basic_file_sink_st>(sink, count);\
    for (std::uint64_t i = 0; i < count * 100; ++i) asm volatile("");\
}\
\
&|' $f
  sed -i '0,/\.put_ints = put_ints<spdlog::sinks::basic_file_sink_st>,/s//.put_ints = slower_put_ints,/' $f
  grep -q "slower_put_ints(const Sink" $f && grep -q "\.put_ints = slower_put_ints," $f \
    || fail "examples/out-of-tree/spdlog_family.cpp changed: the regression could not be put in"
  commit repo "spdlog_st: more work per integer"
  cd repo || exit 1
  g=$source/examples/ci/iobench-gate.sh
  e="^iobench-gate.sh: error: "
  a=(--prefix ../prefix --target spdlog_plugin --build-type "$build_type" --compare "$source/tools/iobench-compare")
  refused "${e}--compare '/nonexistent/iobench-compare': no such program" "$g" "${a[@]}" \
    --compare /nonexistent/iobench-compare HEAD HEAD
  refused "${e}BASE_REV 'nosuch': not a commit of" "$g" "${a[@]}" nosuch HEAD
  refused "${e}HEAD_REV 'HEAD x': not a revision name" "$g" "${a[@]}" HEAD "HEAD x"
  refused "${e}BASE_REV 'HEAD': no sub/CMakeLists.txt at" "$g" "${a[@]}" --source-dir sub HEAD HEAD
  "$g" "${a[@]}" --out ../gate HEAD~1 HEAD -- "--benchmark_filter=^ints_out/" >../out 2>../err
  status=$?
  cd .. || exit 1
  [ $status -eq 4 ] || { cat out >&2; fail "a regression of spdlog_st: exit $status, not 4"; }
  grep -Eq "^regression: ints_out/spdlog_st: .* instructions per item" gate/gate.txt \
    || fail "gate.txt does not name ints_out/spdlog_st: $(cat gate/gate.txt)"
  [ "$(grep -c '^regression: ' gate/gate.txt)" -eq 1 ] || fail "more than spdlog_st regressed: $(cat gate/gate.txt)"
  grep -q "^gate: FAILED, 1 regression(s) beyond 3 %" gate/gate.txt || fail "gate.txt: $(cat gate/gate.txt)"
  grep -q "spdlog_mt" gate/comparison.md || fail "comparison.md has no spdlog_mt row"
  for f in base.json head.json; do
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["context"]["instructions_source"]' \
      gate/$f || fail "gate/$f has no instructions"
  done
  grep -q "gate/head.json" out || fail "the output does not say where head.json is"
  nothing_left repo
  ;;
*)
  fail "unknown scenario $scenario"
  ;;
esac
echo "ok: $scenario"
