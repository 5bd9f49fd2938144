#!/bin/sh
# wine-run.sh WINE PREFIX PROGRAM [ARGS...]: runs a Windows program under wine,
# as CMAKE_CROSSCOMPILING_EMULATOR of the MinGW build (ctest, test discovery,
# the main job), reliably however many run at once.
#
# Every wine process talks to a wineserver. Left to itself, the first wine
# process of a prefix starts one that exits a few seconds after its last
# client; a process that connects while it exits fails with "wine client
# error:0: recvmsg: Connection reset by peer". So all programs of one build
# tree share a private prefix (PREFIX, in the build tree: no other user of
# wine is touched) and one persistent wineserver, started here by the first
# program under a lock and stopped by the test fixture wine.stop
# (wine-run.sh --stop PREFIX). Starting it also starts wine's background
# processes (services, winedevice) with their output on /dev/null: started by
# a test instead, they would hold that test's output pipe open until timeout.
# With IOBENCH_WINE_LINGER=N (seconds), the server ends by itself N seconds
# after its last program instead (the MSVC tools of a build: no fixture stops
# that server).
set -u

if [ "${1:-}" = "--stop" ]; then
  prefix=$2
  export WINEPREFIX="$prefix"
  exec 9>"$prefix.lock"
  flock -w 120 9 || { echo "wine-run.sh: $prefix.lock stays locked" >&2; exit 1; }
  if [ -d "$prefix" ]; then
    wineserver -k >/dev/null 2>&1 9>&-
    wineserver -w >/dev/null 2>&1 9>&-
  fi
  rm -f "$prefix.server"
  exit 0
fi

wine=$1
prefix=$2
shift 2
export WINEPREFIX="$prefix" WINEDEBUG=-all

# True when the server this script started for the prefix still runs. A
# process id alone does not say so: ids are reused (pid_max may be 32768), by
# another prefix's wineserver too. A wineserver works in the directory
# .../server-<device>-<inode> named after its prefix (in hexadecimal).
server_runs() {
  [ -f "$prefix.server" ] || return 1
  pid=$(cat "$prefix.server")
  [ -n "$pid" ] || return 1
  # shellcheck disable=SC2046 # two numbers
  dir=$(printf 'server-%x-%x' $(stat -c '%d %i' "$prefix" 2>/dev/null) 2>/dev/null) || return 1
  case $(readlink "/proc/$pid/cwd" 2>/dev/null) in
    */"$dir") return 0 ;;
    *) return 1 ;;
  esac
}

if ! server_runs; then
  (
    flock 9
    if ! server_runs; then
      # A server someone else started for this prefix: let it end first.
      # One that is persistent never ends by itself (a run killed before it
      # wrote $prefix.server left it): after a minute it is stopped.
      timeout 60 wineserver -w >/dev/null 2>&1 || wineserver -k >/dev/null 2>&1
      # (Neither the server nor wine's background processes may inherit the
      # lock's descriptor 9: they would hold the lock as long as they live.)
      persistent=--persistent
      [ -z "${IOBENCH_WINE_LINGER:-}" ] || persistent=--persistent=$IOBENCH_WINE_LINGER
      setsid wineserver --foreground "$persistent" </dev/null >/dev/null 2>&1 9>&- &
      server=$!
      # The first program creates the prefix (once, ~10 s) and starts wine's
      # background processes, all with their output on /dev/null.
      "$wine" cmd /c exit </dev/null >/dev/null 2>&1 9>&-
      # Only now is the server announced: a program that saw it earlier
      # (the check above takes no lock) could start the background processes
      # itself, and they would hold its output pipe open, so that ctest waits
      # for that test until its timeout.
      echo "$server" >"$prefix.server"
    fi
  ) 9>"$prefix.lock"
fi

exec "$wine" "$@"
