# The protocol of docs/external-methods.md in POSIX sh, for the tests' small
# programs (tests/core/programs/broken_programs.cpp registers them): well_behaved.sh follows
# it; each misbehaving one redefines one step below, then calls serve.
# Arguments: METHOD OPERATION PATH COUNT BUFFER_SIZE [ARGUMENT...]
operation=$2 path=$3 count=$4
shift 5
argument=${1-}

# One correct run: the output (put_repeat, put_ints) or the values parsed (get_ints).
correct_run() {
  i=0
  case $operation in
    put_repeat) while [ "$i" -lt "$count" ]; do printf '%s' "$argument"; i=$((i + 1)); done >"$path" ;;
    put_ints) while [ "$i" -lt "$count" ]; do echo "$i"; i=$((i + 1)); done >"$path" ;;
    get_ints)
      parsed=0 checksum=0
      while read -r v; do parsed=$((parsed + 1)); checksum=$((checksum + parsed * v)); done <"$path" ;;
    *) echo "tests/programs: operation $operation is not one of theirs" >&2; exit 1 ;;
  esac
}

# The steps a misbehaving program redefines.
do_run() { correct_run; }
# The run's own time, from the monotonic-enough wall clock of date(1) in ns
# ($1); first appended, after the operation, to the file $IOBENCH_TEST_TIMES
# names (when set), where the tests find what the program said: before the
# answer, so that this write is always among the run's counted calls (after
# it, it raced iobench's reading of the counters).
answer_run() {
  if [ -n "${IOBENCH_TEST_TIMES-}" ]; then echo "$operation $1" >>"$IOBENCH_TEST_TIMES"; fi
  echo "$1"
}
answer_check() { echo "$parsed $checksum"; }
at_end() { exit 0; }

serve() {
  echo ready
  while read -r request; do
    case $request in
      ping) echo pong ;;
      run) t0=$(date +%s%N); do_run; t1=$(date +%s%N); answer_run $((t1 - t0)) ;;
      check) answer_check ;;
      *) echo "tests/programs: unknown request $request" >&2; exit 1 ;;
    esac
  done
  at_end
}
