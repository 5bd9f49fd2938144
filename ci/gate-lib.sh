# ci/gate-lib.sh: what the two regression gates (ci/regression-gate.sh and
# examples/ci/iobench-gate.sh) share, sourced by both after they defined
# `me` (their name in messages) and `die MESSAGE` (one line, exit 2):
#   - gate_out_dir: the results directory, refused when another user could
#     change it or a directory above it (docs/reliability.md, guarantee 13's
#     rules: owner the caller or root, writable by no one else, a sticky
#     directory such as /tmp allowed above it), a link on the way followed
#     only when it is the caller's or root's in a directory others cannot
#     change;
#   - gate_start: a temporary directory of the run's own, with a marker naming
#     the run, so that what a run killed by SIGKILL left (its worktrees and
#     its temporary directory) is found and removed by the next run; and a
#     guard, a process of its own session that ends the running build (or
#     run) and removes those leftovers as soon as the script ends without
#     having done so (SIGKILL);
#   - gate_run: every build, run and comparison in a process group (a
#     session) of its own, ended (SIGTERM, then SIGKILL after 5 s) as soon as
#     the script is interrupted, and by the guard when the script is killed.
# Run as `bash ci/gate-lib.sh guard WORK REPO NAME` it is that guard.

# gate_user_text UID: "user NAME (uid UID)", or "uid UID" for a uid without a user.
gate_user_text() {
  local name
  name=$(getent passwd "$1" 2>/dev/null | cut -d: -f1)
  if [ -n "$name" ]; then echo "user $name (uid $1)"; else echo "uid $1"; fi
}

# gate_group_has_others GID: status 0 when group GID may hold a user other
# than the caller: it is not the caller's own group, or a member or a user
# whose primary group it is is someone else (core/os/trusted_file.cpp's rule).
gate_group_has_others() {
  local gid=$1 me members m
  [ "$gid" = "$(id -g)" ] || return 0
  me=$(id -un 2>/dev/null) || return 0
  members=$(getent group "$gid" 2>/dev/null) || return 0
  members=${members##*:}
  for m in ${members//,/ }; do [ "$m" = "$me" ] || return 0; done
  getent passwd 2>/dev/null | awk -F: -v g="$gid" -v u="$(id -u)" '$4 == g && $3 != u { found = 1 } END { exit !found }'
}

# gate_why_changeable PATH KIND [own]: prints why another user could change
# PATH (a KIND, "directory" or "file", not a link), or nothing: it belongs to
# another user than the caller and root (with "own": than the caller), or
# another user may write to it (a sticky directory excepted, unless "own").
gate_why_changeable() {
  local path=$1 kind=$2 own=${3:-} uid gid mode me sticky=no
  read -r uid gid mode < <(stat -c '%u %g %a' -- "$path" 2>/dev/null) ||
    { echo "the $kind $path cannot be examined"; return; }
  mode=$((8#$mode))
  me=$(id -u)
  if [ "$uid" != "$me" ] && { [ -n "$own" ] || [ "$uid" != 0 ]; }; then
    echo "the $kind $path belongs to $(gate_user_text "$uid")"
    return
  fi
  [ -n "$own" ] || [ ! -d "$path" ] || ((!(mode & 01000))) || sticky=yes
  if ((mode & 02)) && [ $sticky = no ]; then
    printf 'every user may write to the %s %s (mode %o)\n' "$kind" "$path" $((mode & 07777))
  elif ((mode & 020)) && [ $sticky = no ] && gate_group_has_others "$gid"; then
    printf 'the group (gid %s) of the %s %s may write to it (mode %o)\n' "$gid" "$kind" "$path" $((mode & 07777))
  fi
}

# gate_why_parents_changeable DIR: the first reason gate_why_changeable gives
# for DIR (a physical path) or a directory above it, or nothing.
gate_why_parents_changeable() {
  local dir=$1 why
  while :; do
    why=$(gate_why_changeable "$dir" directory)
    [ -z "$why" ] || { echo "$why"; return; }
    [ "$dir" != / ] || return 0
    dir=$(dirname -- "$dir")
  done
}

# gate_out_dir OPTION GIVEN: makes the results directory GIVEN (created if
# missing) and sets GATE_OUT to its physical path; refuses (die) a directory
# another user could change (or one above it: gate_why_changeable), a link
# on the way that another user owns or could have replaced, and a directory
# that holds files (nothing is replaced). OPTION names it in messages (--out).
gate_out_dir() {
  local opt=$1 given=$2 path p=/ c next why i uid
  local -a comps rest=()
  case $given in /*) path=$given ;; *) path=$PWD/$given ;; esac
  IFS=/ read -r -a comps <<<"$path"
  for ((i = 0; i < ${#comps[@]}; i++)); do
    c=${comps[$i]}
    case $c in '' | .) continue ;; ..) p=$(dirname -- "$p"); continue ;; esac
    next=${p%/}/$c
    if [ -L "$next" ]; then
      # Followed only when no other user can have put it there or can replace it.
      why=$(gate_why_changeable "$p" directory)
      [ -z "$why" ] || die "$opt '$given': the link $next is in a directory another user can change ($why): not followed"
      read -r uid < <(stat -c '%u' -- "$next")
      [ "$uid" = "$(id -u)" ] || [ "$uid" = 0 ] ||
        die "$opt '$given': the link $next belongs to $(gate_user_text "$uid"): not followed"
      next=$(cd -P -- "$next" 2>/dev/null && pwd -P) || die "$opt '$given': the link $next leads to no directory"
    elif [ ! -e "$next" ]; then
      rest=("${comps[@]:i}")
      break
    elif [ ! -d "$next" ]; then
      die "$opt '$given': $next is not a directory"
    fi
    p=$next
  done
  why=$(gate_why_parents_changeable "$p")
  [ -z "$why" ] || die "$opt '$given': $why"
  for c in "${rest[@]}"; do
    case $c in '' | .) continue ;; ..) die "$opt '$given': '..' after a directory that does not exist" ;; esac
    p=${p%/}/$c
    # Fails when the name was taken meanwhile (a sticky directory): nothing of another user's is used.
    # Mode 755 whatever the umask: no one else may write to it.
    mkdir -m 755 -- "$p" 2>/dev/null || die "$opt '$given': $p cannot be made"
  done
  why=$(gate_why_changeable "$p" directory own)
  [ -z "$why" ] || die "$opt '$given': $why"
  [ -z "$(ls -A -- "$p")" ] || die "$opt '$p' is not empty: give another directory (nothing is replaced)"
  GATE_OUT=$p
}

# gate_start_time PID: the start time of process PID (clock ticks since boot:
# /proc/PID/stat, field 22), or "-" where there is no /proc; status 1 when no such process.
gate_start_time() {
  local stat
  if [ -d /proc/self ]; then
    read -r stat 2>/dev/null </proc/"$1"/stat || return 1
    stat=${stat##*) }
    # shellcheck disable=SC2086  # the fields, split on purpose
    set -- $stat
    echo "${20}"
  else
    kill -0 "$1" 2>/dev/null || return 1
    echo -
  fi
}

GATE_MARKER=.iobench-gate-run

# gate_remove_leftovers NAME: removes what runs of NAME (iobench-gate,
# iobench-regression-gate) that were killed left in the temporary directory:
# each directory NAME.* of the caller's there (never a link, never another
# user's) whose marker names a process that no longer runs: its worktrees
# (git worktree remove, prune) and the directory.
gate_remove_leftovers() {
  local name=$1 tmp=${TMPDIR:-/tmp} d pid start repo uid
  for d in "$tmp/$name".*; do
    [ -d "$d" ] && [ ! -L "$d" ] && [ -f "$d/$GATE_MARKER" ] && [ ! -L "$d/$GATE_MARKER" ] || continue
    read -r uid < <(stat -c %u -- "$d")
    [ "$uid" = "$(id -u)" ] || continue
    read -r uid < <(stat -c %u -- "$d/$GATE_MARKER")
    [ "$uid" = "$(id -u)" ] || continue
    pid=$(sed -n 's/^pid //p' "$d/$GATE_MARKER")
    start=$(sed -n 's/^start //p' "$d/$GATE_MARKER")
    repo=$(sed -n 's/^repo //p' "$d/$GATE_MARKER")
    [[ $pid =~ ^[0-9]+$ ]] || continue
    # A run still going (the same process, not a new one with its number) is left alone.
    [ "$(gate_start_time "$pid" 2>/dev/null)" != "$start" ] || continue
    gate_remove_run "$d" "$repo"
    echo "$me: removed what an earlier run (pid $pid), killed, left: its worktrees and $d" >&2
  done
}

# gate_remove_run WORK REPO: removes the worktrees WORK/base and WORK/head of REPO, and WORK.
gate_remove_run() {
  local work=$1 repo=$2 wt
  for wt in "$work/base" "$work/head"; do
    [ ! -d "$wt" ] || [ ! -d "$repo" ] || git -C "$repo" worktree remove --force "$wt" >/dev/null 2>&1 || true
  done
  rm -rf -- "$work"
  [ ! -d "$repo" ] || git -C "$repo" worktree prune >/dev/null 2>&1 || true
}

# gate_start NAME REPO: removes an earlier killed run's leftovers
# (gate_remove_leftovers NAME), makes the run's temporary directory GATE_WORK
# (NAME.XXXXXX, mode 700) with its marker, starts the guard, and sets the
# traps: on exit everything of the run is ended and removed; a signal N ends
# the script with 128+N at once (a build or run going is ended first).
gate_start() {
  GATE_NAME=$1
  GATE_REPO=$2
  GATE_GROUP=""
  GATE_WORK=""
  trap gate_cleanup EXIT
  local sig
  for sig in HUP INT QUIT PIPE TERM; do
    # shellcheck disable=SC2064  # the number is the signal's, fixed here
    trap "exit $((128 + $(kill -l "$sig")))" "$sig"
  done
  gate_remove_leftovers "$GATE_NAME"
  GATE_WORK=$(mktemp -d "${TMPDIR:-/tmp}/$GATE_NAME.XXXXXX")
  printf 'pid %s\nstart %s\nrepo %s\n' "$$" "$(gate_start_time $$)" "$GATE_REPO" >"$GATE_WORK/$GATE_MARKER"
  # The guard reads the running group's id from a pipe only this script holds; end of file without
  # "done" means the script was killed.
  exec {GATE_GUARD_FD}> >(exec setsid bash "$GATE_LIB" guard "$GATE_WORK" "$GATE_REPO" "$me" >/dev/null)
  echo "guard $!" >>"$GATE_WORK/$GATE_MARKER"
}

# gate_end_group PGID: ends the process group PGID: SIGTERM, then SIGKILL after 5 s.
gate_end_group() {
  local pg=$1 i
  kill -TERM -- -"$pg" 2>/dev/null || return 0
  for ((i = 0; i < 50; i++)); do
    kill -0 -- -"$pg" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- -"$pg" 2>/dev/null || true
}

# gate_run LOG COMMAND...: runs COMMAND in a session (and process group) of
# its own, its output added to LOG (created if missing, never replaced), and
# returns its exit status. A signal to the script ends it at once (the trap's
# exit, then gate_cleanup).
gate_run() {
  local log=$1 status
  shift
  [ -e "$log" ] || : >"$log"
  setsid "$@" </dev/null >>"$log" 2>&1 {GATE_GUARD_FD}>&- &
  GATE_GROUP=$!
  echo "group $GATE_GROUP" >&"$GATE_GUARD_FD"
  status=0
  wait "$GATE_GROUP" || status=$?
  GATE_GROUP=""
  echo "group -" >&"$GATE_GUARD_FD"
  return $status
}

# gate_cleanup: the EXIT trap: ends a running group, removes the worktrees and GATE_WORK, tells the guard.
gate_cleanup() {
  [ -z "${GATE_GROUP:-}" ] || gate_end_group "$GATE_GROUP"
  [ -z "${GATE_WORK:-}" ] || gate_remove_run "$GATE_WORK" "$GATE_REPO"
  [ -z "${GATE_GUARD_FD:-}" ] || echo done >&"$GATE_GUARD_FD" 2>/dev/null || true
}

# The guard (bash ci/gate-lib.sh guard WORK REPO NAME), in a session of its
# own: reads "group PGID" / "group -" / "done" from standard input; at end of
# input without "done" (the script was killed) it ends the group running then
# and removes the run's worktrees and WORK.
gate_guard() {
  local work=$1 repo=$2 group="" line done=no
  trap '' HUP INT QUIT PIPE TERM
  while IFS= read -r line; do
    case $line in
      "group -") group="" ;;
      "group "*) group=${line#group } ;;
      done) done=yes ;;
    esac
  done
  [ $done = no ] || return 0
  [ -z "$group" ] || gate_end_group "$group"
  if [ -d "$work" ]; then
    gate_remove_run "$work" "$repo"
    echo "$me: the script ended without cleaning up (killed): its build or run ended, its worktrees and $work removed" >&2
  fi
}

GATE_LIB=${BASH_SOURCE[0]}
case $GATE_LIB in /*) ;; *) GATE_LIB=$PWD/$GATE_LIB ;; esac
if [ "${1:-}" = guard ] && [ "$0" = "${BASH_SOURCE[0]}" ]; then
  me=$4
  gate_guard "$2" "$3"
fi
