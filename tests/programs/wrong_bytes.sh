# Writes one byte too many in every run.
. "$(dirname "$0")/protocol.sh"
do_run() { correct_run; printf x >>"$path"; }
serve
