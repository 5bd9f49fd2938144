#!/usr/bin/env bash
# The regression gate end to end, as a user's project meets it (issue 48): a
# plugin at two real git commits gated through examples/ci/iobench-gate.sh
# against an installed iobench, by instructions per item (valgrind) and by
# system calls per item. The sanitized test tree cannot count instructions
# (valgrind does not run an ASan binary), so its ctest skips these scenarios;
# here they run with a release build of iobench (preset linux-release), and a
# skip is a failure. Each scenario is tests/ci_gate_test.sh's (its header says
# what each checks):
#   example_percall     a logger with only the per-call shape, 20 % more work
#                       per integer, gated with the script's default suite: exit 4
#   example_fdatasync   the same logger with fdatasync after each flush: exit 4
#                       naming the system call
#   example_suite_file  --suite FILE: bad files refused before anything runs
#   example             examples/out-of-tree (spdlog), one method made slower:
#                       exit 4 naming it and no other benchmark
# About 2 minutes after the build on a shared 2-core VM. Needs what
# tools/install-deps.sh installs (ci/linux.sh runs it first).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset linux-release
cmake --build --preset linux-release
work=$PWD/build/gate-scenarios
# Two scenarios at a time (valgrind, which counts the instructions, runs one
# thread; the machine this job was sized on has two cores), each into a log
# of its own, printed whole when it ends; the longest first.
mkdir -p "$work"
run() {
  bash tests/ci_gate_test.sh "$1" "$PWD" "$work" "$PWD/build/linux-release" \
    "$PWD/build/linux-release/iobench" Release >"$work/$1.log" 2>&1
}
failed=0
report() {  # SCENARIO STATUS
  echo "gate scenario: $1"
  cat "$work/$1.log"
  if [ "$2" -ne 0 ]; then
    echo "gate scenario $1: exit status $2 (77: skipped, which this job does not allow)" >&2
    failed=1
  fi
}
pairs=("example_fdatasync example_percall" "example example_suite_file")
for pair in "${pairs[@]}"; do
  read -r first second <<<"$pair"
  run "$first" & pid=$!
  status=0
  run "$second" || status=$?
  first_status=0
  wait "$pid" || first_status=$?
  report "$first" "$first_status"
  report "$second" "$status"
done
[ "$failed" -eq 0 ] || exit 1
rm -rf "$work"
