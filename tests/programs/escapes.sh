# Follows the protocol, but first starts a process in a session of its own
# (setsid), out of its process group's reach, and leaves its process id in
# PATH.escaped: iobench must end it and fail the row naming it.
. "$(dirname "$0")/protocol.sh"
setsid sleep 600 </dev/null >/dev/null 2>&1 &
echo $! >"$path.escaped"
serve
