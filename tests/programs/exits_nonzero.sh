# Fails its first run: a message on standard error, exit status 3.
. "$(dirname "$0")/protocol.sh"
do_run() { echo "tests/programs: cannot open $path: Permission denied" >&2; exit 3; }
serve
