# Answers a run with 10 s, far longer than the run took.
. "$(dirname "$0")/protocol.sh"
answer_run() { echo 10000000000; }
serve
