# Reports 1 ns for every run, whatever the run took: a time no run of its
# work could have (tests/core/programs/program_test.cpp).
. "$(dirname "$0")/protocol.sh"
answer_run() { echo 1; }
# Enough work (its 10,000 lines eight times over) to be well past the 50 ms
# of CPU time a run may use beyond what it claims.
do_run() { for k in 1 2 3 4 5 6 7 8; do correct_run; done; }
serve
