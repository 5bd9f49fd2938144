#!/bin/sh
# sh stopped_note.sh IOBENCH WORK MODE
# The summary's note of stopped repetitions, with a real SIGSTOP and real CPU
# hogs (docs/methodology.md; core/report/summary.cpp, stopped_repetitions):
#   stop       one repetition of ints_out/fprintf is stopped for 2 s
#              (SIGSTOP, then SIGCONT): the note names it
#   load       3 CPU hogs beside the run on this machine's CPUs, no stop:
#              the note names nothing (waiting for a CPU is not being stopped)
#   stop_load  both: the note names the stopped repetition
# In every mode no time off a CPU is negative. The stop lands in the
# repetition's measured calls about 9 times in 10 (its untimed checks are the
# rest): a stop that missed them is tried again, up to 3 times.
set -u
iobench=$1 work=$2 mode=$3
hogs=""
cleanup() {
  for h in $hogs; do kill "$h" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
# A signal (ctest's timeout, a closed pipe) ends the script through the EXIT trap:
# no hog outlives it.
trap 'exit 1' HUP INT TERM PIPE
fail() {
  echo "FAILED ($mode): $1" >&2
  echo "--- stdout:" >&2; cat "$work/out" >&2
  echo "--- stderr:" >&2; cat "$work/err" >&2
  exit 1
}
case $mode in
  # Each hog ends by itself after 5 min too, whatever happens to this script.
  *load*) for i in 1 2 3; do timeout 300 sh -c 'while :; do :; done' & hogs="$hogs $!"; done ;;
esac
attempt=1
while :; do
  rm -rf "$work/dir"
  mkdir -p "$work/dir"
  "$iobench" --benchmark_filter='^ints_out/fprintf$' --scale 0.01 --benchmark_repetitions=5 \
    --benchmark_min_time=0.5 --no-interleave --dir "$work/dir" >"$work/out" 2>"$work/err" &
  pid=$!
  case $mode in
    stop*)
      # Once repetition 3 has started: stopped for 2 s.
      i=0
      until grep -q 'repetition 3/5' "$work/err" 2>/dev/null; do
        i=$((i + 1))
        [ "$i" -lt 3000 ] || fail "repetition 3 never started"
        sleep 0.01
      done
      sleep 0.1
      kill -STOP "$pid"
      sleep 2
      kill -CONT "$pid"
      ;;
  esac
  wait "$pid"
  rc=$?
  [ "$rc" -eq 0 ] || fail "exit status $rc"
  if grep -Eq -- '-[0-9][0-9.]* (ns|us|ms|s) per run off a CPU|median: -' "$work/out"; then
    fail "a negative time off a CPU"
  fi
  case $mode in
    stop*)
      if grep -q 'stopped or blocked: .*ints_out/fprintf, repetition 3 of 5: ' "$work/out"; then break; fi
      [ "$attempt" -lt 3 ] || fail "the stopped repetition 3 is not named (3 tries)"
      attempt=$((attempt + 1))
      ;;
    load)
      if grep -q 'stopped or blocked' "$work/out"; then fail "a busy machine was taken for a stop"; fi
      break
      ;;
  esac
done
grep 'stopped or blocked' "$work/out" || echo "($mode: no repetition named)"
exit 0
