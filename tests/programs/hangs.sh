# Never finishes its first run: waits for a child of its own (in its process
# group), whose process id it leaves in PATH.sleeper.
. "$(dirname "$0")/protocol.sh"
do_run() { sleep 600 & echo $! >"$path.sleeper"; wait; }
serve
