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
# About 4 minutes after the build on a shared 2-core VM. Needs what
# tools/install-deps.sh installs (ci/linux.sh runs it first).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset linux-release
cmake --build --preset linux-release
work=$PWD/build/gate-scenarios
for scenario in example_percall example_fdatasync example_suite_file example; do
  echo "gate scenario: $scenario"
  status=0
  bash tests/ci_gate_test.sh "$scenario" "$PWD" "$work" "$PWD/build/linux-release" \
    "$PWD/build/linux-release/iobench" Release || status=$?
  if [ "$status" -ne 0 ]; then
    echo "gate scenario $scenario: exit status $status (77: skipped, which this job does not allow)" >&2
    exit 1
  fi
done
rm -rf "$work"
