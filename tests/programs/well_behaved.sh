# Follows the protocol: every run correct.
. "$(dirname "$0")/protocol.sh"
serve
