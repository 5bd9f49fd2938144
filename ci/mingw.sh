#!/usr/bin/env bash
# The MinGW CI job, on Debian/Ubuntu: installs the MinGW-w64 cross compiler,
# wine and the header-only dependencies (Boost's headers among them), builds
# Google Benchmark, GoogleTest, {fmt} and Boost.Iostreams for MinGW
# (ci/build-windows-deps.sh mingw), then cross-builds iobench and
# runs every test as a Windows program under wine:
#   cmake --workflow --preset mingw
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  g++-mingw-w64-x86-64-posix wine64 wine
  cmake ninja-build git dpkg-dev
  nlohmann-json3-dev libcli11-dev libxxhash-dev libdragonbox-dev libboost-dev
)
bash ci/apt-install.sh mingw "${packages[@]}"

bash ci/build-windows-deps.sh mingw

# The tests run under wine through cmake/toolchains/wine-run.sh, which gives
# the build tree its own wine prefix and one persistent wineserver for the
# whole test run (stopped by the test fixture wine.stop): nothing to set up here.
cmake --workflow --preset mingw
