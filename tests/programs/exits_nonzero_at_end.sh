# Every run correct, then exit status 1 at the end of its requests.
. "$(dirname "$0")/protocol.sh"
at_end() { echo "tests/programs: crashed while closing" >&2; exit 1; }
serve
