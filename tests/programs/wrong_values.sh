# Reports one value fewer than it parsed.
. "$(dirname "$0")/protocol.sh"
answer_check() { echo "$((parsed - 1)) $checksum"; }
serve
