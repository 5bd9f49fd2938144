#!/usr/bin/env bash
# tests/ci_gate_test.sh SCENARIO SOURCE_DIR WORKDIR [IOBENCH_BUILD_DIR IOBENCH BUILD_TYPE]
# The regression gate's scripts (ci/regression-gate.sh, examples/ci/iobench-gate.sh)
# on real git repositories, real builds and real runs. Each scenario exits
# non-zero with a message when the script does not do what it says; 77
# (skipped) with the reason when this machine cannot run it.
# The scenarios named example_* run examples/ci/iobench-gate.sh, the others
# ci/regression-gate.sh (the example's against an installed iobench, or one
# that only answers --list: example_fake_prefix):
#   refused          bad input (a suite that does not exist, a suite file that is
#                    not JSON included): one line on stderr, exit 2, before anything
#                    is built, nothing left
#   build_failed     a commit that does not configure: exit 1, its log kept, worktrees removed
#   signal           SIGTERM to the script's process group in the middle of a build
#                    (a configure that sleeps): exit 143, the build ended, worktrees removed
#   sigterm          SIGTERM to the script alone: the same, at once (not after the build)
#   sigkill          SIGKILL of the script alone: its build ended and its worktree and
#                    temporary directory removed within seconds (the guard)
#   leftovers        SIGKILL of the script and its guard: the next run removes what the
#                    killed one left (its marker names it)
#   out_trust        --out another user (uid 12345, through setpriv, as root) could change
#                    or redirect: its link in a sticky directory, its directory, a directory
#                    of mode 777 or 1777, a group with another member: refused (exit 2,
#                    nothing written there); a new directory in a sticky one and a link of
#                    one's own: used
#   example_refused  examples/ci/iobench-gate.sh's bad input (before a revision is read)
#   example_signal, example_sigterm, example_sigkill, example_leftovers, example_out_trust
#                    the same as above through examples/ci/iobench-gate.sh
#   example          examples/ci/iobench-gate.sh on two commits of a user's project
#                    (examples/out-of-tree), the second one's spdlog_st doing more
#                    work per integer: exit 4 naming it, and no other benchmark;
#                    bad revisions refused
#                    (needs an iobench that counts instructions: not a sanitized build
#                    without a hardware counter)
#   example_percall  a user's plugin (toylog) whose one method has only the per-call
#                    shape, gated with the script's defaults; the second commit does
#                    33 instructions more per call (+20 % per integer): exit 4 naming it
#   example_fdatasync  the same plugin, the second commit adding fdatasync after each
#                    write of its buffer: exit 4 naming the system call
#   example_suite_file  --suite FILE: a file that is not JSON refused before anything is
#                    built; one naming an unknown method refused once the base's plugin
#                    is built, before anything runs
#   compare_time     two native results files of 3 repetitions (a suite file), one
#                    method's times doubled in the second: iobench-compare --gate-on
#                    median exits 4, or 2 "undecided" with the step it could detect,
#                    and prints the ratio
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

# alive PID: the process runs (a zombie does not).
alive() {
  local st
  st=$(ps -o stat= -p "$1" 2>/dev/null) && [[ $st != Z* ]]
}

# What a scenario started is ended when it fails: the script and the configure it waits for.
started=()
end_started() {
  local p
  for p in "${started[@]}"; do kill -KILL "$p" 2>/dev/null; done
  [ ! -f "$work/configure.pid" ] || kill -KILL "$(cat "$work/configure.pid")" 2>/dev/null
  return 0
}
trap end_started EXIT

# A configure that writes its process id to $work/configure.pid and sleeps (CMake code).
slow_configure="execute_process(COMMAND sh -c \"echo \$\$ >$work/configure.pid; exec sleep 120\")"

# An installed iobench in prefix/ that only answers --list (exit 0; exit 2 and iobench's line for
# the suite nonexistent_zz), for the example's tests that never reach a run.
fake_prefix() {
  local dir=${1:-prefix}
  mkdir -p "$dir/bin" "$dir/lib/cmake/iobench"
  cat >"$dir/bin/iobench" <<'FAKE'
#!/bin/sh
case " $* " in
  *" --suite nonexistent_zz "*) echo 'iobench: error: unknown suite "nonexistent_zz" (built in: quick; or a path to a .json file)' >&2; exit 2 ;;
  *" --list "*) exit 0 ;;
esac
echo "iobench: this test's iobench only lists" >&2
exit 1
FAKE
  chmod +x "$dir/bin/iobench"
}

# setup SCRIPT CMAKE_CODE: a repository repo/ whose CMakeLists.txt holds CMAKE_CODE, and in g the
# command that gates two of its commits: SCRIPT gate (ci/regression-gate.sh, a copy in repo/ci) or
# example (examples/ci/iobench-gate.sh with fake_prefix's iobench, run in repo/).
setup() {
  if [ "$1" = gate ]; then
    gate_repo "$2"
    g=("$work/repo/ci/regression-gate.sh")
    tmpname=iobench-regression-gate
  else
    mkdir -p repo
    printf 'cmake_minimum_required(VERSION 3.25)\nproject(p NONE)\n%s\n' "$2" >repo/CMakeLists.txt
    git_repo repo "first"
    fake_prefix
    g=(env -C "$work/repo" "$source/examples/ci/iobench-gate.sh" --prefix "$work/prefix" --target t
       --compare "$source/tools/iobench-compare")
    tmpname=iobench-gate
  fi
}

# Starts "${g[@]}" --out o HEAD HEAD in a process group of its own (as a terminal or a CI runner
# starts it) and waits for its configure to sleep: sets pid (the script's) and spid (the sleep's).
start_slow() {
  rm -f "$work/configure.pid"
  set -m
  "${g[@]}" --out "$work/o" HEAD HEAD >out 2>err &
  pid=$!
  set +m
  started+=("$pid")
  for _ in $(seq 300); do
    [ -s "$work/configure.pid" ] && break
    sleep 0.1
  done
  [ -s "$work/configure.pid" ] || fail "the configure did not start in 30 s"
  spid=$(cat "$work/configure.pid")
  [ "$(git -C repo worktree list | wc -l)" -eq 2 ] || fail "no worktree while the configure runs"
}

# within SECONDS WHAT COMMAND...: COMMAND succeeds within SECONDS, else the scenario fails saying WHAT.
within() {
  local seconds=$1 what=$2 i
  shift 2
  for ((i = 0; i < seconds * 10; i++)); do
    "$@" && return 0
    sleep 0.1
  done
  fail "$what (after $seconds s)"
}
gone() { ! alive "$1"; }
tmp_empty() { [ -z "$(ls -A "$TMPDIR")" ]; }
one_worktree() { [ "$(git -C repo worktree list | wc -l)" -eq 1 ]; }

# installed_iobench BUILD_DIR IOBENCH: BUILD_DIR installed into prefix/, or the scenario skipped
# (77) when its IOBENCH cannot count instructions (a sanitized build without a hardware counter).
installed_iobench() {
  local status
  "$2" --instructions "--benchmark_filter=^hello/limit$" --scale 0.0001 --dir "$TMPDIR" >probe 2>&1
  status=$?
  if [ $status -eq 2 ]; then
    echo "skipped: this iobench cannot count instructions: $(grep error probe | head -1)" >&2
    exit 77
  fi
  [ $status -eq 0 ] || { cat probe >&2; fail "iobench --instructions exited with $status"; }
  cmake --install "$1" --prefix prefix >install.log 2>&1 || { cat install.log >&2; fail "cmake --install"; }
}

# toy_project: a user's project in repo/ (committed): a plugin toylog_plugin of one family, toylog,
# whose one method has only the per-call shape (open, a call per line or integer, close): a buffer
# of its own, written with write(2) when full. Its code holds two markers for the changes the
# scenarios make: "// EXTRA_WORK" (each call) and "// AFTER_FLUSH" (each write of the buffer).
toy_project() {
  mkdir -p repo
  cat >repo/CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(toylog LANGUAGES CXX)
find_package(iobench 1 REQUIRED)
iobench_add_plugin(toylog_plugin toylog.cpp)
CMAKE
  cat >repo/toylog.cpp <<'CPP'
// toylog: a logger of one's own with only the per-call shape.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <iobench/error.hpp>
#include <iobench/method.hpp>

namespace iobench {
namespace {

struct Log {
    int fd = -1;
    std::string path;
    std::vector<char> buffer;
    std::size_t used = 0;
};

void write_all(Log& log, const char* p, std::size_t left) {
    while (left > 0) {
        const ssize_t n = ::write(log.fd, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw_errno("write", log.path);
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
}

void flush(Log& log) {
    write_all(log, log.buffer.data(), log.used);
    log.used = 0;
    // AFTER_FLUSH
}

void append(Log& log, const char* data, std::size_t size) {
    // EXTRA_WORK
    if (log.buffer.size() - log.used < size) flush(log);
    if (size > log.buffer.size()) return write_all(log, data, size);
    std::memcpy(log.buffer.data() + log.used, data, size);
    log.used += size;
}

CallSink open_log(const Sink& sink) {
    auto log = std::make_unique<Log>();
    log->path = sink.path;
    log->buffer.resize(sink.buffer_size ? sink.buffer_size : 65536);
    log->fd = ::open(sink.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (log->fd < 0) throw_errno("open", sink.path);
    return log.release();
}

void close_log(CallSink sink) {
    std::unique_ptr<Log> log(static_cast<Log*>(sink));
    try {
        flush(*log);
    } catch (...) {
        ::close(log->fd);
        throw;
    }
    if (::close(log->fd) != 0) throw_errno("close", log->path);
}

void put_line(CallSink sink, std::string_view line) { append(*static_cast<Log*>(sink), line.data(), line.size()); }

void put_int(CallSink sink, std::uint64_t value) {
    char text[24];
    char* end = std::to_chars(text, text + sizeof text - 1, value).ptr;
    *end++ = '\n';
    append(*static_cast<Log*>(sink), text, static_cast<std::size_t>(end - text));
}

constexpr Calls calls{.open = open_log, .close = close_log, .put_int = put_int, .put_line = put_line};

const MethodRegistrar registrar{{.family = "toylog"}, {
    {.name = "toylog", .description = "a buffer of its own, write(2) when full: per call only", .calls = &calls},
}};

}  // namespace
}  // namespace iobench
CPP
  git_repo repo "toylog: the methods"
}

# toy_change MARKER CODE MESSAGE: the toy project's marker replaced by CODE, committed as MESSAGE.
toy_change() {
  grep -q "// $1\$" repo/toylog.cpp || fail "repo/toylog.cpp has no marker $1"
  sed -i "s|// $1\$|$2|" repo/toylog.cpp
  commit repo "$3"
}

# A repository holding this checkout's ci/regression-gate.sh (and tools/, which
# it runs), so that the script works on that repository's commits.
gate_repo() {
  mkdir -p repo/ci repo/suites
  cp "$source/ci/regression-gate.sh" "$source/ci/gate-lib.sh" repo/ci/
  cp "$source/suites/quick.json" repo/suites/
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
  refused "${e}--suite 'nonexistent_zz': no built-in suite of that name at BASE_REV" $g --suite nonexistent_zz HEAD HEAD
  refused "${e}--suite '$work/nosuch.json': no such readable file" $g --suite nosuch.json HEAD HEAD
  echo '{"name": ' >bad.json
  refused "${e}--suite '$work/bad.json': not a JSON file" $g --suite bad.json HEAD HEAD
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
signal|example_signal|sigterm|example_sigterm)
  kind=gate; [[ $scenario != example_* ]] || kind=example
  setup $kind "$slow_configure"
  start_slow
  if [[ $scenario == *signal ]]; then
    kill -TERM -- -"$pid"  # the script's process group, as a terminal or a CI runner signals it
  else
    kill -TERM "$pid"  # the script alone
  fi
  # At once: within 10 s, not after the 120 s of the configure.
  within 10 "the script still runs after SIGTERM" gone "$pid"
  wait "$pid"
  status=$?
  [ $status -eq 143 ] || fail "SIGTERM: exit $status, not 143"
  gone "$spid" || fail "the configure (pid $spid) still runs after the script ended"
  nothing_left repo
  ;;
sigkill|example_sigkill)
  kind=gate; [[ $scenario != example_* ]] || kind=example
  setup $kind "$slow_configure"
  start_slow
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  within 15 "the configure (pid $spid) still runs after SIGKILL of the script" gone "$spid"
  within 15 "the worktree is left after SIGKILL of the script" one_worktree
  within 15 "the temporary directory is left after SIGKILL of the script: $(ls -A "$TMPDIR")" tmp_empty
  # The guard says so after it has removed them: wait for the line too.
  within 15 "the guard did not say what it removed" grep -q "ended without cleaning up" err
  ;;
leftovers|example_leftovers)
  kind=gate; [[ $scenario != example_* ]] || kind=example
  setup $kind "$slow_configure"
  start_slow
  markers=("$TMPDIR/$tmpname".*/.iobench-gate-run)
  [ -f "${markers[0]}" ] || fail "no marker in $TMPDIR: $(ls -A "$TMPDIR")"
  guard=$(sed -n 's/^guard //p' "${markers[0]}")
  [ -n "$guard" ] || fail "the marker names no guard: $(cat "${markers[0]}")"
  # Everything killed at once, the guard first: nothing of the script's can clean up.
  kill -KILL "$guard" "$pid"
  kill -KILL -- -"$(ps -o pgid= -p "$spid" | tr -d ' ')"
  wait "$pid" 2>/dev/null
  within 10 "the configure still runs" gone "$spid"
  [ "$(git -C repo worktree list | wc -l)" -eq 2 ] || fail "no worktree left to remove: the scenario proves nothing"
  tmp_empty && fail "no temporary directory left to remove: the scenario proves nothing"
  # The next run (of a commit that does not configure) removes them, and says so.
  printf 'cmake_minimum_required(VERSION 3.25)\nproject(p NONE)\nmessage(FATAL_ERROR "no")\n' >repo/CMakeLists.txt
  commit repo "second"
  rm -rf o
  "${g[@]}" --out "$work/o2" HEAD HEAD >out 2>err
  status=$?
  [ $status -eq 1 ] || fail "the next run: exit $status, not 1"
  grep -q "removed what an earlier run (pid $pid), killed, left" err || fail "the next run did not say what it removed"
  nothing_left repo
  ;;
out_trust|example_out_trust)
  if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1; then
    echo "skipped: needs root and setpriv to act as a second user" >&2
    exit 77
  fi
  kind=gate; [[ $scenario != example_* ]] || kind=example
  setup $kind 'message(FATAL_ERROR "this commit does not configure")'
  other=(setpriv --reuid=12345 --regid=12345 --clear-groups)
  e="error: --out '"
  mkdir -m 1777 sticky && chmod 1777 sticky
  mkdir -m 777 open && chmod 777 open
  mkdir theirs mine && chown 12345:12345 theirs
  "${other[@]}" ln -s "$work/theirs" sticky/outlink
  "${other[@]}" mkdir sticky/theirs_empty
  mkdir -m 1777 mine/shared_out && chmod 1777 mine/shared_out
  mkdir grouped && chgrp 12345 grouped && chmod 775 grouped
  refused "${e}$work/sticky/outlink': the link $work/sticky/outlink belongs to uid 12345: not followed" \
    "${g[@]}" --out "$work/sticky/outlink" HEAD HEAD
  refused "${e}$work/sticky/theirs_empty': the directory $work/sticky/theirs_empty belongs to uid 12345" \
    "${g[@]}" --out "$work/sticky/theirs_empty" HEAD HEAD
  refused "${e}$work/theirs/x': the directory $work/theirs belongs to uid 12345" \
    "${g[@]}" --out "$work/theirs/x" HEAD HEAD
  refused "${e}$work/open/x': every user may write to the directory $work/open \(mode 777\)" \
    "${g[@]}" --out "$work/open/x" HEAD HEAD
  refused "${e}$work/mine/shared_out': every user may write to the directory $work/mine/shared_out \(mode 1777\)" \
    "${g[@]}" --out "$work/mine/shared_out" HEAD HEAD
  refused "${e}$work/grouped/x': the group \(gid 12345\) of the directory $work/grouped may write to it" \
    "${g[@]}" --out "$work/grouped/x" HEAD HEAD
  [ -z "$(ls -A theirs)" ] && [ -z "$(ls -A open)" ] && [ -z "$(ls -A grouped)" ] \
    || fail "written into a directory refused: $(ls -A theirs open grouped)"
  # A new directory in a sticky one, and a link of one's own there: used (the build then fails: exit 1),
  # also under umask 000 (the directory made is not writable by others).
  ln -s "$work/mine" sticky/mylink
  for o in sticky/new sticky/mylink/new; do
    (umask 000 && exec "${g[@]}" --out "$work/$o" HEAD HEAD) >out 2>err
    status=$?
    [ $status -eq 1 ] || fail "--out $o: exit $status, not 1 (a build that fails)"
    [ -s "$work/$o/build-base.log" ] || fail "--out $o: no build-base.log"
    [ "$(stat -c %u "$work/$o")" = 0 ] || fail "--out $o is not the caller's"
  done
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
  refused "${e}--suite '../x': give the name of a built-in suite" "$g" --prefix ../prefix --target t --suite ../x HEAD HEAD
  (cd .. && fake_prefix fake)
  refused "${e}iobench --list --suite nonexistent_zz: unknown suite \"nonexistent_zz\"" "$g" --prefix ../fake \
    --target t --compare "$source/tools/iobench-compare" --suite nonexistent_zz HEAD HEAD
  cd .. && nothing_left repo
  ;;
example)
  installed_iobench "$4" "$5"
  build_type=$6
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
  grep -q "^verdict: exit 4: system calls passed; instructions a regression" gate/gate.txt \
    || fail "gate.txt's verdict: $(tail -n 1 gate/gate.txt)"
  for f in base.json head.json; do
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["context"]["instructions_source"]' \
      gate/$f || fail "gate/$f has no instructions"
  done
  for f in base-native.json head-native.json; do
    python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert "instructions_source" not in d["context"]' \
      gate/$f || fail "gate/$f is not a native run"
  done
  grep -q "gate/head.json" out || fail "the output does not say where head.json is"
  nothing_left repo
  ;;
example_percall|example_fdatasync)
  # A plugin whose method has only the per-call shape, gated with the script's defaults (the quick
  # suite): its rows are judged. example_percall: each call does more work, 11 iterations of an
  # empty loop (33 instructions: +20 % of the 164 instructions per integer of its ints_out row, as
  # measured by the latency suite's per-call row; +45 % of its hello row's 74);
  # example_fdatasync: an fdatasync after each write of the buffer, no other change.
  installed_iobench "$4" "$5"
  build_type=$6
  toy_project
  if [ $scenario = example_percall ]; then
    toy_change EXTRA_WORK 'for (int i = 0; i < 11; ++i) asm volatile("");' "toylog: more work per call"
  else
    toy_change AFTER_FLUSH 'if (::fdatasync(log.fd) != 0) throw_errno("fdatasync", log.path);' \
      "toylog: fdatasync after each write"
  fi
  g=$source/examples/ci/iobench-gate.sh
  env -C repo "$g" --prefix ../prefix --target toylog_plugin --build-type "$build_type" \
    --compare "$source/tools/iobench-compare" --out ../gate HEAD~1 HEAD >out 2>err
  status=$?
  cat gate/gate.txt 2>/dev/null
  [ -f gate/gate.txt ] || fail "no gate.txt (exit $status): $(tail -n 5 out)"
  grep -Eq "^regression: [^ ]*toylog" gate/gate.txt || fail "gate.txt names no regression of toylog"
  if [ $scenario = example_percall ]; then
    [ $status -ne 0 ] || fail "a per-call method 20 % slower in instructions: exit 0"
    [ $status -eq 4 ] || fail "a per-call method 20 % slower in instructions: exit $status, not 4"
    grep -Eq "^regression: [^ ]*toylog.*instructions" gate/gate.txt \
      || fail "gate.txt does not name the instructions of toylog"
  else
    [ $status -eq 4 ] || fail "fdatasync after each write: exit $status, not 4"
    grep -Eiq "^regression: [^ ]*toylog.*(fdatasync|fsync|sync)" gate/gate.txt \
      || fail "gate.txt does not name the system call (fdatasync)"
  fi
  grep -q "^verdict: exit 4" gate/gate.txt || fail "the verdict line does not say exit 4"
  for f in base-native.json head-native.json base.json head.json; do
    [ -s gate/$f ] || fail "no gate/$f"
  done
  nothing_left repo
  ;;
example_suite_file)
  # --suite FILE (relative: made absolute before the script changes directory), read by the installed
  # iobench before anything is built: a file that is not JSON is refused there (exit 2, one line, no
  # worktree, no --out); one naming a method iobench does not know (it may be the plugin's) is read
  # again with the base's plugin, and refused then, before anything runs.
  installed_iobench "$4" "$5"
  build_type=$6
  toy_project
  echo '{"name": "bad", "benchmarks": [' >bad.json
  echo '{"name": "mine", "benchmarks": [{"workload": "hello", "methods": ["nosuch_method"]}]}' >unknown.json
  g=$source/examples/ci/iobench-gate.sh
  a=(--prefix ../prefix --target toylog_plugin --build-type "$build_type" --compare "$source/tools/iobench-compare")
  cd repo || exit 1
  refused "^iobench-gate.sh: error: iobench --list --suite $work/bad.json: suite $work/bad.json: not valid JSON" \
    "$g" "${a[@]}" --suite ../bad.json --out ../o1 HEAD HEAD
  [ ! -e ../o1 ] || fail "--out made for a suite refused"
  "$g" "${a[@]}" --suite ../unknown.json --out ../o2 HEAD HEAD >../out 2>../err
  status=$?
  cd .. || exit 1
  [ $status -eq 2 ] || fail "a suite file naming an unknown method: exit $status, not 2"
  grep -q "^iobench-gate.sh: error: iobench --plugin toylog_plugin.so --list --suite $work/unknown.json: .*unknown method \"nosuch_method\"" err \
    || fail "stderr does not name the unknown method"
  [ -s o2/build-base.log ] && [ ! -e o2/build-head.log ] && [ ! -e o2/base-native.json ] \
    || fail "built the head or ran with a suite refused: $(ls o2)"
  nothing_left repo
  ;;
compare_time)
  # Two native results files of 3 repetitions, one method 2x slower in time only (its times doubled
  # in a copy: same system calls, no instruction counts): iobench-compare gating on the median time
  # finds the regression (exit 4) or says "undecided" with the smallest step it could detect, and
  # prints the ratio either way: never "nothing judged" without a ratio.
  iobench=$5
  cat >three.json <<'SUITE'
{"name": "three", "repetitions": 3, "min_time": 0.05, "scale": 0.01,
 "benchmarks": [{"workload": "ints_out", "methods": ["fprintf", "write", "obuf", "limit"]}]}
SUITE
  "$iobench" --suite "$PWD/three.json" --dir "$TMPDIR" --benchmark_out=base.json >run.txt 2>&1 \
    || { cat run.txt >&2; fail "iobench --suite three.json"; }
  python3 - base.json head.json <<'PY' || fail "head.json could not be made"
import json, sys
data = json.load(open(sys.argv[1]))
doubled = 0
for row in data["benchmarks"]:
    if row.get("run_name", row["name"]).startswith("ints_out/fprintf"):
        for key in list(row):
            if key in ("real_time", "cpu_time") or key.startswith("latency_") or key.startswith("p50") \
                    or key.startswith("p99"):
                if isinstance(row[key], (int, float)):
                    row[key] = row[key] * 2
        for key in ("bytes_per_second", "items_per_second"):
            if key in row:
                row[key] = row[key] / 2
        doubled += 1
assert doubled >= 3, doubled
json.dump(data, open(sys.argv[2], "w"), indent=1)
PY
  "$source/tools/iobench-compare" base.json head.json --fail-on-regression 3 --gate-on time >out 2>err
  status=$?
  cat err
  case $status in
    4) grep -Eq "^regression: ints_out/fprintf" err || fail "exit 4 without ints_out/fprintf named" ;;
    2) grep -Eiq "undecided" err || fail "exit 2 without \"undecided\": $(tail -n 3 err)"
       grep -Eiq "ints_out/fprintf.*(detect|step)" err || fail "undecided without its detectable step" ;;
    *) fail "ints_out/fprintf 2x slower in 3 repetitions: exit $status, not 4 or undecided (2)" ;;
  esac
  grep -Eq "ints_out/fprintf.*(\+100(\.0)?%|2\.00?x|x ?2\.0)" err out || fail "no ratio printed for ints_out/fprintf"
  ;;
*)
  fail "unknown scenario $scenario"
  ;;
esac
echo "ok: $scenario"
