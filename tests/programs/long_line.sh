# Answers its first run with a line that never ends (1 KiB at a time, no
# line break): iobench must stop reading at 1 MiB and kill it, not wait.
. "$(dirname "$0")/protocol.sh"
answer_run() {
  chunk=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
  chunk=$chunk$chunk$chunk$chunk$chunk$chunk$chunk$chunk$chunk$chunk
  while :; do printf '%s' "$chunk"; done
}
serve
