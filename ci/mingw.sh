#!/usr/bin/env bash
# The MinGW CI job, on Debian/Ubuntu: installs the MinGW-w64 cross compiler,
# wine and the header-only dependencies, builds Google Benchmark and
# GoogleTest for MinGW (ci/build-mingw-deps.sh), then cross-builds iobench and
# runs every test as a Windows program under wine:
#   cmake --workflow --preset mingw
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++-mingw-w64-x86-64-posix wine64 wine
  cmake ninja-build git dpkg-dev
  nlohmann-json3-dev libcli11-dev libxxhash-dev
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -ne 0 ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "mingw: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

bash ci/build-mingw-deps.sh

# Create the wine prefix (~/.wine) once, before the tests start two wine
# processes at a time; a fresh one takes a few seconds. Then keep one
# wineserver running for the whole test run: otherwise every test's wine
# process may start or stop the server, and a process that connects while it
# exits fails with "wine client error: recvmsg: Connection reset by peer".
# The server that wine started lingers a few seconds: let it go first. Once the
# persistent server is up, start wine once more with its output to /dev/null:
# wine's background processes (services, winedevice) start with the first
# program and live as long as the server; started by a test instead, they would
# hold that test's output pipe open and ctest would wait for it until timeout.
export WINEDEBUG=-all
wine cmd /c exit >/dev/null 2>&1 || true
wineserver -w
wineserver -p
wine cmd /c exit >/dev/null 2>&1 || true
trap 'wineserver -k >/dev/null 2>&1 || true' EXIT

cmake --workflow --preset mingw
