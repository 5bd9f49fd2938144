#!/usr/bin/env bash
# ci/apt-install.sh WHO PACKAGE...: installs the Debian/Ubuntu packages that
# are not installed yet (apt-get, through sudo unless root), saying so as WHO.
# Idempotent: does nothing when every package is installed (of the build
# machine's architecture, or the one a PACKAGE:ARCH names: ci/dpkg-native.sh).
set -euo pipefail
. "$(dirname "$0")/dpkg-native.sh"
who=$1
shift
missing=()
for p in "$@"; do
  dpkg_installed "$p" || missing+=("$p")
done
[ ${#missing[@]} -ne 0 ] || exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "$who: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" ||
  { echo "$who: apt-get could not install ${missing[*]}" >&2; exit 1; }
