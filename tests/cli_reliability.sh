#!/usr/bin/env bash
# tests/cli_reliability.sh SCENARIO IOBENCH WORKDIR
# Attacks on the command line (docs/reliability.md), one scenario per ctest
# test, run on real files, descriptors, signals and limits. Each scenario exits
# non-zero with a message when a guarantee does not hold.
set -uo pipefail
scenario=$1
iobench=$2
work=$3/$scenario
rm -rf "$work"
mkdir -p "$work/dir" "$work/results" "$work/tmp"
export TMPDIR=$work/tmp
cd "$work" || exit 1

# Under an emulator (the ARM64 build's tests run under qemu-aarch64: IOBENCH_TEST_EMULATOR, its
# command), iobench is a script that execs the emulator on it: the same process, so the signals,
# limits, descriptors and exit status are iobench's. iobench_command is the emulator's command and
# iobench itself, for a shell that cannot start a script (low_limits: 8 descriptors).
iobench_command=("$iobench")
if [ -n "${IOBENCH_TEST_EMULATOR:-}" ]; then
  read -r -a iobench_command <<<"$IOBENCH_TEST_EMULATOR"
  iobench_command+=("$iobench")
  printf '#!/bin/sh\nexec %s %q "$@"\n' "$IOBENCH_TEST_EMULATOR" "$iobench" >"$work/iobench-emulated"
  chmod 755 "$work/iobench-emulated"
  iobench=$work/iobench-emulated
fi

# Two quick benchmarks: one writes a file, one writes to stdout (fd 1).
quick=(--scale 0.001 "--benchmark_filter=^(ints_out/obuf|console_short/fwrite)$" --benchmark_min_time=0.001
       --benchmark_repetitions=2 --dir "$work/dir")

fail() { echo "FAIL: $*" >&2; [ -f err ] && { echo "--- stderr:" >&2; cat err >&2; }; exit 1; }

# The JSON file $1 parses and holds N (>= 1) rows without error.
valid_json() {
  python3 - "$1" <<'EOF' || fail "$1 is not a complete results file"
import json, sys
doc = json.load(open(sys.argv[1]))
rows = doc["benchmarks"]
assert rows, "no rows"
bad = [r["name"] for r in rows if r.get("error_occurred")]
assert not bad, "failed rows: %s" % bad
assert "interleaved" in doc["context"]
EOF
}

# Nothing of a run is left: no working directory, no temporary results file.
nothing_left() {
  local left
  left=$(find "$work/dir" "$work/tmp" "$work/results" -mindepth 1 \( -name 'iobench-*' -o -name '*.partial' -o -name 'output-*' -o -name 'input-*' \) 2>/dev/null)
  [ -z "$left" ] || fail "left behind: $left"
}

count_results() { find "$work/results" -name '*.json' | wc -l; }

# An earlier results file whose bytes must never change.
earlier() {
  printf '{"context": {}, "benchmarks": []}\n' > "$work/results/earlier.json"
  cp "$work/results/earlier.json" "$work/earlier.copy"
}
earlier_untouched() { cmp -s "$work/results/earlier.json" "$work/earlier.copy" || fail "earlier results changed"; }

# Starts a long run in the background (pid in $run_pid) and waits until it
# writes its output, so that a signal finds files to remove.
# (Job control on while it starts: without it the shell starts a background
# command with SIGINT and SIGQUIT ignored, and iobench leaves them so.)
start_long_run() {
  set -m
  "$iobench" --scale 0.2 "--benchmark_filter=^hello/write$" --benchmark_min_time=0.001 --dir "$work/dir" \
    --results-dir "$work/results" "$@" >/dev/null 2>err &
  run_pid=$!
  set +m
  wait_for_output
}

# Waits until the run $run_pid writes its output.
wait_for_output() {
  for _ in $(seq 300); do
    [ -n "$(find "$work/dir" -name 'output-*' 2>/dev/null)" ] && return 0
    sleep 0.1
  done
  kill -KILL "$run_pid"
  fail "the run did not start writing within 30 s"
}

case $scenario in
closed_stdout)
  # fd 1 closed: the results file must not become fd 1, the console
  # workload must still run (its stdout is /dev/null), exit 0.
  "$iobench" "${quick[@]}" --results-dir "$work/results" >&- 2>err; rc=$?
  [ $rc -eq 0 ] || fail "exit status $rc, expected 0"
  [ "$(count_results)" -eq 1 ] || fail "expected one results file"
  valid_json "$(find "$work/results" -name '*.json')"
  "$iobench" "${quick[@]}" --benchmark_out="$work/out.json" >&- 2>err; rc=$?
  [ $rc -eq 0 ] || fail "--benchmark_out: exit status $rc, expected 0"
  valid_json "$work/out.json"
  # All three closed: still a valid file, and the status says what happened.
  "$iobench" "${quick[@]}" --benchmark_out="$work/out2.json" <&- >&- 2>&-; rc=$?
  [ $rc -eq 0 ] || fail "0-2 closed: exit status $rc, expected 0"
  valid_json "$work/out2.json"
  nothing_left
  ;;
parallel_results_dir)
  # Two runs at once into one --results-dir: two complete files, two names.
  earlier
  "$iobench" "${quick[@]}" --results-dir "$work/results" >/dev/null 2>err1 &
  a=$!
  "$iobench" "${quick[@]}" --results-dir "$work/results" >/dev/null 2>err2 &
  b=$!
  wait $a; ra=$?
  wait $b; rb=$?
  [ $ra -eq 0 ] && [ $rb -eq 0 ] || { cat err1 err2 >&2; fail "exit statuses $ra and $rb, expected 0 and 0"; }
  [ "$(count_results)" -eq 3 ] || { ls -la "$work/results" >&2; fail "expected two new results files"; }
  for f in "$work"/results/*.json; do [ "$f" = "$work/results/earlier.json" ] || valid_json "$f"; done
  earlier_untouched
  nothing_left
  ;;
results_file_too_large)
  # The results file cannot be written (file-size limit 4 KiB, as a full
  # disk): exit 1, the path named, no partial file, earlier results intact.
  earlier
  ( ulimit -f 4 && exec "$iobench" --scale 0.001 "--benchmark_filter=^console_short/fwrite$" \
      --benchmark_min_time=0.001 --benchmark_repetitions=2 --dir "$work/dir" --results-dir "$work/results" \
      >/dev/null 2>err ); rc=$?
  [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
  grep -q "results not written to $work/results/.*\.json: write($work/results/\..*\.partial): File too large" err \
    || fail "no error naming the results file"
  [ "$(count_results)" -eq 1 ] || fail "a results file was written"
  earlier_untouched
  nothing_left
  # The same with --benchmark_out replacing an earlier file: it stays as it was.
  cp "$work/earlier.copy" "$work/out.json"
  ( ulimit -f 4 && exec "$iobench" --scale 0.001 "--benchmark_filter=^console_short/fwrite$" \
      --benchmark_min_time=0.001 --benchmark_repetitions=2 --dir "$work/dir" --benchmark_out="$work/out.json" \
      >/dev/null 2>err ); rc=$?
  [ $rc -eq 1 ] || fail "--benchmark_out: exit status $rc, expected 1"
  cmp -s "$work/out.json" "$work/earlier.copy" || fail "--benchmark_out: the earlier file changed"
  [ -z "$(find "$work" -maxdepth 1 -name '*.partial')" ] || fail "--benchmark_out: partial file left"
  ;;
failed_run_out)
  # A benchmark fails (its output cut by a 256 KiB file-size limit: EFBIG):
  # exit 1, and --benchmark_out=FILE gets the results as FILE.failed, whether
  # FILE exists or not, so that FILE never holds a failed run.
  ( ulimit -f 256 && exec "$iobench" --scale 0.001 "--benchmark_filter=^hello/obuf$" --benchmark_min_time=0.001 \
      --benchmark_repetitions=1 --dir "$work/dir" --benchmark_out="$work/out.json" >/dev/null 2>err ); rc=$?
  [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
  [ ! -e "$work/out.json" ] || fail "a failed run wrote out.json"
  [ -f "$work/out.json.failed" ] || fail "no out.json.failed"
  grep -q '"error_occurred": true' "$work/out.json.failed" || fail "out.json.failed holds no failed row"
  grep -q "results written to $work/out.json.failed" err || fail "the .failed path not named"
  # An earlier FILE stays as it was; the next failed run numbers its .failed file.
  earlier
  cp "$work/earlier.copy" "$work/out.json"
  ( ulimit -f 256 && exec "$iobench" --scale 0.001 "--benchmark_filter=^hello/obuf$" --benchmark_min_time=0.001 \
      --benchmark_repetitions=1 --dir "$work/dir" --benchmark_out="$work/out.json" >/dev/null 2>err ); rc=$?
  [ $rc -eq 1 ] || fail "second run: exit status $rc, expected 1"
  cmp -s "$work/out.json" "$work/earlier.copy" || fail "the earlier out.json changed"
  [ -f "$work/out.json.failed" ] && [ -f "$work/out.json-2.failed" ] \
    || { ls "$work" >&2; fail "the second failed run did not get a name of its own"; }
  nothing_left
  ;;
stdout_full)
  # stdout on /dev/full: the report is lost, so the status says so; the
  # results file is still complete.
  "$iobench" "${quick[@]}" --results-dir "$work/results" >/dev/full 2>err; rc=$?
  [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
  grep -q "writing the report to standard output failed: No space left on device" err || fail "stdout error not reported"
  valid_json "$(find "$work/results" -name '*.json')"
  nothing_left
  ;;
broken_pipe)
  # stdout is a pipe nobody reads: the summary is printed after the results
  # file is written, so the verified results are kept; exit 128+13 as SIGPIPE
  # would give, saying so; nothing else left.
  mkfifo fifo
  exec 4<>fifo 5>fifo 4<&-
  "$iobench" "${quick[@]}" --results-dir "$work/results" >&5 2>err; rc=$?
  exec 5>&-
  [ $rc -eq 141 ] || fail "exit status $rc, expected 141"
  grep -q "^iobench: standard output closed before the summary was printed (broken pipe); the results are kept$" err ||
    fail "no message"
  [ "$(count_results)" -eq 1 ] || fail "the verified results were not kept"
  valid_json "$(find "$work/results" -name '*.json')"
  # The same through a real pipeline whose reader ends at once.
  "$iobench" "${quick[@]}" --results-dir "$work/results" 2>err | true; rc=${PIPESTATUS[0]}
  [ $rc -eq 141 ] || fail "| true: exit status $rc, expected 141"
  [ "$(count_results)" -eq 2 ] || fail "| true: the verified results were not kept"
  nothing_left
  ;;
signal_HUP | signal_INT | signal_TERM | signal_QUIT | signal_PIPE | signal_USR1)
  # A signal in the middle of a run: every file removed, exit 128+N.
  sig=${scenario#signal_}
  earlier
  start_long_run
  kill -s "$sig" "$run_pid"
  wait "$run_pid"; rc=$?
  expected=$((128 + $(kill -l "$sig")))
  [ $rc -eq $expected ] || fail "exit status $rc, expected $expected"
  grep -q "stopped by signal $(kill -l "$sig")" err || fail "no message"
  [ "$(count_results)" -eq 1 ] || fail "a results file was written"
  earlier_untouched
  nothing_left
  ;;
signal_foreign_file)
  # A file that is not iobench's in a running work directory (as NFS's
  # .nfsXXXX), then SIGINT: the directory cannot be removed, so it keeps a
  # (free) lock file, and the next run removes it as stale.
  start_long_run
  run_dir=$(find "$work/dir" -mindepth 1 -maxdepth 1 -name 'iobench-*')
  [ -n "$run_dir" ] || fail "no work directory found (test broken)"
  touch "$run_dir/.nfs000000000000abcd"
  kill -INT "$run_pid"
  wait "$run_pid"; rc=$?
  [ $rc -eq 130 ] || fail "exit status $rc, expected 130"
  [ -f "$run_dir/lock" ] || fail "$run_dir was left without its lock: no later run would remove it"
  "$iobench" "${quick[@]}" >/dev/null 2>err; rc=$?
  [ $rc -eq 0 ] || fail "the next run: exit status $rc, expected 0"
  grep -q "removed $run_dir, left by process [0-9]* that no longer runs" err || fail "the next run did not remove it"
  [ ! -e "$run_dir" ] || fail "$run_dir still there"
  ;;
empty_values)
  # An empty value is a bad value (CLI11 would leave the option unset).
  for option in --scale --file-size --results-dir --dir; do
    "$iobench" "--benchmark_filter=^ints_out/obuf$" --benchmark_min_time=0.001 "$option" '' >/dev/null 2>err; rc=$?
    [ $rc -eq 2 ] || fail "$option '': exit status $rc, expected 2"
    grep -q "^iobench: error: $option '': " err || fail "$option '': no message naming it"
  done
  nothing_left
  ;;
results_dir_refused)
  # A run refused with exit 2 creates no --results-dir.
  "$iobench" "${quick[@]}" --results-dir "$work/results/a/b/c" --scale 0 >/dev/null 2>err; rc=$?
  [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
  [ ! -e "$work/results/a" ] || fail "--results-dir was created by a refused run"
  "$iobench" "${quick[@]}" --results-dir "$work/results/a/b/c" >/dev/null 2>err; rc=$?
  [ $rc -eq 0 ] || fail "exit status $rc, expected 0"
  valid_json "$(find "$work/results/a/b/c" -name '*.json')"
  nothing_left
  ;;
ignored_signals)
  # Started with SIGHUP, SIGINT and SIGQUIT ignored (nohup, a background
  # job): they stay ignored, the run goes on to its results, exit 0.
  ( trap '' HUP INT QUIT
    exec "$iobench" --scale 0.05 "--benchmark_filter=^hello/write$" --benchmark_min_time=0.001 \
      --benchmark_repetitions=2 --dir "$work/dir" --results-dir "$work/results" >/dev/null 2>err ) &
  run_pid=$!
  wait_for_output
  for sig in HUP INT QUIT; do kill -s $sig "$run_pid"; done
  wait "$run_pid"; rc=$?
  [ $rc -eq 0 ] || fail "exit status $rc, expected 0"
  [ "$(count_results)" -eq 1 ] || fail "expected one results file"
  valid_json "$(find "$work/results" -name '*.json')"
  nothing_left
  ;;
stderr_unwritable)
  # stderr on a full device (one made here when root, else /dev/full): the
  # diagnostics are lost, the exit status is still the documented one.
  full=/dev/full
  if [ "$(id -u)" -eq 0 ]; then mknod "$work/full" c 1 7 && full=$work/full; fi
  [ -c "$full" ] || fail "no full device to test with"
  "$iobench" --frobnicate 2>"$full"; rc=$?
  [ $rc -eq 2 ] || fail "usage error: exit status $rc, expected 2"
  "$iobench" "${quick[@]}" --results-dir "$work/results" >/dev/null 2>"$full"; rc=$?
  [ $rc -eq 0 ] || fail "run: exit status $rc, expected 0"
  [ "$(count_results)" -eq 1 ] || fail "expected one results file"
  valid_json "$(find "$work/results" -name '*.json')"
  "$iobench" "${quick[@]}" --dir "$work/nowhere" 2>"$full"; rc=$?
  [ $rc -eq 2 ] || fail "missing --dir: exit status $rc, expected 2"
  nothing_left
  ;;
sigkill_stale)
  # SIGKILL cannot be caught: the next run recognises what the killed one
  # left (its lock is free), says so and removes it. Files of live runs,
  # foreign files and kept directories stay.
  start_long_run
  kill -KILL "$run_pid"
  wait "$run_pid" 2>/dev/null
  stale=$(find "$work/dir" -mindepth 1 -maxdepth 1 -name 'iobench-*')
  [ -n "$stale" ] || fail "the killed run left nothing to find (test broken)"
  sh -c 'exit 0' & dead=$!
  wait $dead
  # A writer holds its temporary results file locked (flock), as iobench does
  # while it writes one: that one is live whatever its process id says; the
  # unlocked one is stale even though its process id is a live one (another
  # PID namespace may have written it).
  touch "$work/results/.x.json.iobench-$dead-0123abcd.partial" "$work/results/.y.json.iobench-$$-0123abcd.partial" \
        "$work/results/foreign.json.partial"
  exec 7>"$work/results/.x.json.iobench-$$-0123abcd.partial"
  flock -n 7 || fail "could not lock the live partial file"
  mkdir "$work/dir/iobench-$dead-89abcdef"  # no lock file: kept with --keep-files
  "$iobench" "${quick[@]}" --results-dir "$work/results" >/dev/null 2>err; rc=$?
  [ $rc -eq 0 ] || fail "exit status $rc, expected 0"
  grep -q "removed $stale, left by process [0-9]* that no longer runs" err || fail "stale directory not reported"
  [ ! -e "$stale" ] || fail "$stale still there"
  [ ! -e "$work/results/.x.json.iobench-$dead-0123abcd.partial" ] || fail "stale partial file still there"
  [ ! -e "$work/results/.y.json.iobench-$$-0123abcd.partial" ] || fail "an unlocked partial file is still there"
  [ -e "$work/results/.x.json.iobench-$$-0123abcd.partial" ] || fail "a locked (live) partial file was removed"
  exec 7>&-
  [ -e "$work/results/foreign.json.partial" ] || fail "a foreign file was removed"
  [ -d "$work/dir/iobench-$dead-89abcdef" ] || fail "a directory without a lock was removed"
  ;;
keep_files)
  # --keep-files keeps the working directory, without its lock, so that no
  # later run takes it for a stale one.
  "$iobench" --scale 0.001 "--benchmark_filter=^ints_in/ibuf$" --benchmark_min_time=0.001 --dir "$work/dir" \
    --keep-files >/dev/null 2>err || fail "exit status $?"
  kept=$(find "$work/dir" -mindepth 1 -maxdepth 1 -name 'iobench-*')
  [ -n "$kept" ] && [ -n "$(find "$kept" -name 'input-*')" ] || fail "no kept input"
  [ ! -e "$kept/lock" ] || fail "the kept directory still has its lock"
  "$iobench" "${quick[@]}" >/dev/null 2>err || fail "second run: exit status $?"
  [ -d "$kept" ] || fail "the kept directory was removed"
  ;;
output_too_large)
  # A workload whose output exceeds the room for a file (file-size limit
  # 64 KiB): the benchmark fails with needed vs available bytes before it
  # writes; the run exits 1; the other benchmark still runs.
  ( ulimit -f 64 && exec "$iobench" --scale 0.01 "--benchmark_filter=^(ints_out/obuf|console_short/fwrite)$" \
      --benchmark_min_time=0.001 --benchmark_repetitions=1 --dir "$work/dir" --benchmark_out="$work/out.json" \
      >out 2>err ); rc=$?
  [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
  grep -q "the output needs more than 65536 bytes, .* available (the file-size limit is 65536 bytes)" out \
    || { cat out >&2; fail "no needed vs available message"; }
  [ ! -e "$work/out.json" ] || fail "a failed run wrote out.json (expected out.json.failed)"
  python3 - "$work/out.json.failed" <<'EOF' || fail "results file"
import json, sys
rows = {r["name"]: r for r in json.load(open(sys.argv[1]))["benchmarks"]}
assert rows["ints_out/obuf"]["error_occurred"] and "needs more than 65536 bytes" in rows["ints_out/obuf"]["error_message"]
assert not rows["console_short/fwrite"].get("error_occurred")
EOF
  nothing_left
  ;;
input_too_large)
  # An explicit --file-size that does not fit (64 KiB limit): refused before
  # anything is written, with the numbers.
  ( ulimit -f 64 && exec "$iobench" --file-size 1M "--benchmark_filter=^file_read/fread/cache:warm$" \
      --dir "$work/dir" >/dev/null 2>err ); rc=$?
  [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
  grep -q "^iobench: error: --file-size 1M: the file_read input needs 1048576 bytes, $work/dir has [0-9]* available (the file-size limit is 65536 bytes)$" err \
    || fail "no needed vs available message"
  [ -z "$(find "$work/dir" -mindepth 1)" ] || fail "files written"
  ;;
interleave)
  # Repetitions interleaved by default, recorded in the context; --no-interleave turns it off.
  "$iobench" "${quick[@]}" --benchmark_out="$work/on.json" >/dev/null 2>err || fail "exit status $?"
  "$iobench" "${quick[@]}" --no-interleave --benchmark_out="$work/off.json" >/dev/null 2>err || fail "exit status $?"
  "$iobench" "${quick[@]}" --benchmark_enable_random_interleaving=false --benchmark_out="$work/flag.json" \
    >/dev/null 2>err || fail "exit status $?"
  python3 - "$work" <<'EOF' || fail "interleaved not recorded"
import json, sys
ctx = lambda n: json.load(open(sys.argv[1] + "/" + n))["context"]["interleaved"]
assert ctx("on.json") == "true", ctx("on.json")
assert ctx("off.json") == "false", ctx("off.json")
assert ctx("flag.json") == "false", ctx("flag.json")
# The display shows aggregates only; the file still has every repetition.
rows = json.load(open(sys.argv[1] + "/on.json"))["benchmarks"]
assert sum(r["run_type"] == "iteration" for r in rows) == 4, rows
EOF
  ;;
out_not_regular)
  # --benchmark_out names a FIFO, a symbolic link or a device (made here,
  # never the machine's own): refused with exit 2 before anything runs, and
  # each is left as it was. (Renaming over them would replace them: /dev/null
  # once became a regular file.)
  mkfifo "$work/fifo.json"
  printf 'target\n' > "$work/target.json"
  ln -s target.json "$work/link.json"
  targets=(fifo.json link.json)
  if [ "$(id -u)" -eq 0 ]; then
    mknod "$work/null" c 1 3
    targets+=(null)
  fi
  for t in "${targets[@]}"; do
    timeout 60 "$iobench" "${quick[@]}" --benchmark_out="$work/$t" >/dev/null 2>err; rc=$?
    [ $rc -eq 2 ] || fail "$t: exit status $rc, expected 2"
    grep -q "^iobench: error: --benchmark_out=$work/$t: is a .*: results are written to a regular file only" err ||
      fail "$t: no message saying why"
  done
  [ -p "$work/fifo.json" ] || fail "the FIFO was replaced"
  [ -L "$work/link.json" ] || fail "the link was replaced"
  [ "$(cat "$work/target.json")" = target ] || fail "the link's target changed"
  [ "$(id -u)" -ne 0 ] || [ -c "$work/null" ] || fail "the device was replaced"
  nothing_left
  ;;
planted_lock)
  # What looks like a run's lock but is a FIFO (or a link) is never
  # opened to block the cleanup, in --dir, in the temporary directory and in
  # the results file's directory; what a run killed before it locked its lock
  # (lock.new) or its results file (.new) left is removed once old enough.
  mkdir -p "$work/out" "$work/dir/iobench-1-deadbeef" "$work/tmp/iobench-2-deadbeef" \
           "$work/dir/iobench-3-0123abcd" "$work/dir/iobench-4-0123abcd"
  mkfifo "$work/dir/iobench-1-deadbeef/lock" "$work/tmp/iobench-2-deadbeef/lock" \
         "$work/out/.r.json.iobench-5-deadbeef.partial"
  ln -s "$work/earlier.copy" "$work/out/.s.json.iobench-6-deadbeef.partial"
  : > "$work/earlier.copy"
  : > "$work/dir/iobench-3-0123abcd/lock.new"
  : > "$work/dir/iobench-4-0123abcd/lock.new"
  : > "$work/out/.r.json.iobench-7-0123abcd.new"
  touch -d '2 hours ago' "$work/dir/iobench-3-0123abcd/lock.new" "$work/out/.r.json.iobench-7-0123abcd.new"
  timeout 120 "$iobench" "${quick[@]}" --benchmark_out="$work/out/r.json" >/dev/null 2>err; rc=$?
  [ $rc -eq 0 ] || fail "--dir and --benchmark_out: exit status $rc, expected 0 (124: it blocked)"
  valid_json "$work/out/r.json"
  ( unset TMPDIR; export TMPDIR=$work/tmp; exec timeout 120 "$iobench" "${quick[@]:0:${#quick[@]}-2}" ) >/dev/null 2>err \
    || fail "the temporary directory: exit status $? (124: it blocked)"
  for p in dir/iobench-1-deadbeef/lock tmp/iobench-2-deadbeef/lock out/.r.json.iobench-5-deadbeef.partial; do
    [ -p "$work/$p" ] || fail "$p was removed or replaced"
  done
  [ -L "$work/out/.s.json.iobench-6-deadbeef.partial" ] && [ -e "$work/earlier.copy" ] || fail "a link was followed or removed"
  [ ! -e "$work/dir/iobench-3-0123abcd" ] || fail "an old directory holding only lock.new is still there"
  [ ! -e "$work/out/.r.json.iobench-7-0123abcd.new" ] || fail "an old .new results file is still there"
  [ -e "$work/dir/iobench-4-0123abcd/lock.new" ] || fail "a young lock.new (a live run's, maybe) was removed"
  ;;
other_user)
  # In a sticky directory everyone can write to (as /tmp), another
  # user (uid 4242: no account needed) plants a FIFO as a lock and leaves a
  # dead run's directory and partial file. A run of ours, with that
  # directory as --dir, as TMPDIR and as the results file's directory, must
  # not block, must leave all of it alone and say so once.
  if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null; then
    echo "SKIP: needs root and setpriv to act as a second user"
    exit 77
  fi
  other=(setpriv --reuid=4242 --regid=4242 --clear-groups)
  chmod 755 "$work"
  mkdir "$work/S"
  chmod 1777 "$work/S"
  "${other[@]}" test -w "$work/S" || { echo "SKIP: uid 4242 cannot reach $work/S"; exit 77; }
  "${other[@]}" sh -c 'mkdir "$1/iobench-1-deadbeef" "$1/iobench-2-deadbeef" "$1/out" && chmod 1777 "$1/out" &&
    mkfifo "$1/iobench-1-deadbeef/lock" && : > "$1/iobench-2-deadbeef/lock" &&
    : > "$1/out/.r.json.iobench-3-deadbeef.partial"' sh "$work/S" || fail "uid 4242 could not plant its files"
  entries() { find "$work/S" -printf '%p %u %y %s\n' | sort; }
  entries > before
  timeout 120 "$iobench" "${quick[@]:0:${#quick[@]}-2}" --dir "$work/S" --benchmark_out="$work/S/out/r.json" >/dev/null 2>err; rc=$?
  [ $rc -eq 0 ] || fail "exit status $rc, expected 0 (124: it blocked)"
  [ "$(grep -c "^iobench: left iobench-[12]-deadbeef and 1 more alone in $work/S: they are of another user" err)" -eq 1 ] \
    || fail "not said once that another user's entries were left alone"
  grep -q "^iobench: left .r.json.iobench-3-deadbeef.partial alone in $work/S/out: it is of another user" err \
    || fail "the results directory's entry of another user not named"
  ( unset TMPDIR; export TMPDIR=$work/S; exec timeout 120 "$iobench" "${quick[@]:0:${#quick[@]}-2}" ) >/dev/null 2>err \
    || fail "TMPDIR: exit status $? (124: it blocked)"
  rm -f "$work/S/out/r.json"
  entries > after
  diff before after >&2 || fail "another user's entries changed"
  ;;
suite_not_regular)
  # --suite reads a regular file of at most 16 MiB: a FIFO named
  # *.json (reading it waited for ever), a link to /dev/zero or /dev/urandom
  # (1 GB read, then std::bad_alloc) and a 17 MiB file are refused with one
  # line and exit 2, before anything is read.
  mkfifo "$work/fifo.json"
  ln -s /dev/zero "$work/zero.json"
  ln -s /dev/urandom "$work/random.json"
  truncate -s 17M "$work/big.json"
  for s in fifo.json:"is a FIFO, not a suite file" zero.json:"is a character device, not a suite file" \
           random.json:"is a character device, not a suite file" big.json:"larger than 16777216 bytes"; do
    name=${s%%:*}
    timeout 60 "$iobench" --list --suite "$work/$name" >/dev/null 2>err; rc=$?
    [ $rc -eq 2 ] || fail "$name: exit status $rc, expected 2 (124: it blocked)"
    [ "$(wc -l < err)" -eq 1 ] && grep -q "^iobench: error: suite $work/$name: ${s#*:}" err || fail "$name: not one line saying why"
  done
  [ -p "$work/fifo.json" ] || fail "the FIFO was replaced"
  ;;
low_limits)
  # `ulimit -n 8` made Google Benchmark exit 1 with a message of its
  # own (no summary, the work directory left); ulimit -s 32 crashed the sizing
  # run. A soft limit is raised (the run succeeds); a hard one below what a
  # run needs is refused with one line and exit 2, before anything is created.
  for l in "-S -n 8" "-S -s 32"; do
    ( ulimit $l && exec "${iobench_command[@]}" "${quick[@]}" --benchmark_out="$work/out.json" ) >/dev/null 2>err; rc=$?
    [ $rc -eq 0 ] || fail "ulimit $l: exit status $rc, expected 0 (the soft limit raised)"
    valid_json "$work/out.json"
    rm -f "$work/out.json"
  done
  for l in "-n 16:the open-file limit is 16 (ulimit -n), a run needs at least 64: raise it" \
           "-s 32:the stack limit is 32 KiB (ulimit -s), a run needs at least 256 KiB: raise it"; do
    ( ulimit ${l%%:*} && exec "${iobench_command[@]}" "${quick[@]}" --benchmark_out="$work/out.json" ) >/dev/null 2>err; rc=$?
    [ $rc -eq 2 ] || fail "ulimit ${l%%:*}: exit status $rc, expected 2"
    [ "$(cat err)" = "iobench: error: ${l#*:}" ] || fail "ulimit ${l%%:*}: not one line saying why"
    [ ! -e "$work/out.json" ] || fail "ulimit ${l%%:*}: a results file was written"
  done
  nothing_left
  ;;
shared_results_dir)
  # A results directory that every user may write to and that is
  # not sticky (0777), or that another user owns, was used without a word;
  # another user then replaced the results. Now a warning says so (the run
  # goes on); a sticky 1777 directory, as /tmp, and one's own get none.
  mkdir "$work/open" "$work/sticky"
  chmod 0777 "$work/open"
  chmod 1777 "$work/sticky"
  "$iobench" "${quick[@]}" --results-dir "$work/open" >/dev/null 2>err || fail "0777: exit status $?, expected 0"
  grep -q "^iobench: warning: --results-dir $work/open: every user may write to it and it is not sticky (mode 777): another user can replace or remove the files iobench writes there$" err \
    || fail "0777: no warning"
  [ -n "$(find "$work/open" -name '*.json')" ] || fail "0777: no results file"
  "$iobench" "${quick[@]}" --benchmark_out="$work/sticky/r.json" >/dev/null 2>err || fail "1777: exit status $?"
  ! grep -q "warning" err || fail "1777 or one's own directory: a warning"
  if [ "$(id -u)" -eq 0 ]; then
    mkdir "$work/theirs"
    chown 4242:4242 "$work/theirs"
    "$iobench" "${quick[@]}" --benchmark_out="$work/theirs/r.json" >/dev/null 2>err || fail "theirs: exit status $?"
    grep -q "^iobench: warning: --benchmark_out: directory $work/theirs: it belongs to another user (uid 4242): another user can" err \
      || fail "another user's directory: no warning"
  fi
  nothing_left
  ;;
work_dir_full)
  # A --dir whose file system has no inode left for the
  # run's lock said "No space left on device: No space left on device; give
  # --dir" although --dir was given. Now the system's message once, and no
  # advice to do what was done. (A tmpfs of 2 inodes, mounted here: root only.)
  mkdir -p "$work/full"
  if ! mount -t tmpfs -o size=1m,nr_inodes=2 tmpfs "$work/full" 2>/dev/null; then
    echo "SKIP: needs root and a tmpfs mount"
    exit 77
  fi
  trap 'umount "$work/full" 2>/dev/null' EXIT
  "$iobench" --scale 0.001 "--benchmark_filter=^ints_out/obuf$" --dir "$work/full" >/dev/null 2>err; rc=$?
  umount "$work/full"
  [ $rc -eq 2 ] || fail "exit status $rc, expected 2"
  [ "$(wc -l < err)" -eq 1 ] || fail "expected one line"
  grep -q "^iobench: error: .*$work/full/iobench-[^ ]*: No space left on device$" err || fail "not the system's message once"
  nothing_left
  ;;
results_dir_gone|results_dir_unusable)
  # A complete run was lost when its results directory went away
  # during the run (exit 1, nothing kept). Now a directory that is gone is
  # made again and the results go there (exit 0); one that cannot be made
  # again (a file took its name) gives way to $HOME, said on stderr (exit 1).
  mkdir -p "$work/home"
  set -m
  HOME=$work/home "$iobench" --scale 0.02 "--benchmark_filter=^hello/write$" --benchmark_min_time=0.001 \
    --benchmark_repetitions=4 --dir "$work/dir" --results-dir "$work/results/sub" >/dev/null 2>err &
  run_pid=$!
  set +m
  wait_for_output
  rm -rf "$work/results/sub"
  [ "$scenario" = results_dir_gone ] || touch "$work/results/sub"
  wait "$run_pid"; rc=$?
  if [ "$scenario" = results_dir_gone ]; then
    [ $rc -eq 0 ] || fail "exit status $rc, expected 0"
    [ "$(find "$work/results/sub" -name '*.json' | wc -l)" -eq 1 ] || fail "no results file in the directory made again"
    valid_json "$(find "$work/results/sub" -name '*.json')"
  else
    [ $rc -eq 1 ] || fail "exit status $rc, expected 1"
    rescued=$(find "$work/home" -name '*.json')
    [ -n "$rescued" ] || fail "no results file in \$HOME"
    grep -q "^iobench: error: results not written to $work/results/sub/[^ ]*\.json: .*; written to $rescued instead$" err \
      || fail "stderr does not say where the results went"
    valid_json "$rescued"
  fi
  nothing_left
  ;;
*)
  fail "unknown scenario $scenario"
  ;;
esac
echo "PASS: $scenario"
