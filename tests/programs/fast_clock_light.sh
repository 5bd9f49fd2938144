# Reports 1 ns for every run, and does its work with little CPU time of its
# own: awk, a child it waits for, writes the lines, one write(2) each (10,000
# at --scale 0.0001, far inside the 50 ms of CPU time a run may use beyond
# what it claims). Its own system calls prove the claim impossible
# (tests/core/programs/program_test.cpp).
. "$(dirname "$0")/protocol.sh"
answer_run() { echo 1; }
do_run() {
  LINE=$argument awk -v n="$count" 'BEGIN { for (i = 0; i < n; i++) { printf "%s", ENVIRON["LINE"]; fflush() } }' >"$path"
}
serve
