# Never says "ready".
. "$(dirname "$0")/protocol.sh"
serve() { sleep 600; }
serve
