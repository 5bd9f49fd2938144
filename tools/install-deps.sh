#!/usr/bin/env bash
# Installs what iobench needs to build and test on Debian/Ubuntu (run as root,
# or with sudo available): compilers, CMake + Ninja, Google Benchmark, {fmt},
# nlohmann_json, CLI11, xxHash, GoogleTest, Boost.Iostreams and liburing.
# Idempotent: packages already installed are left as they are.
set -euo pipefail

packages=(
  g++ clang cmake ninja-build git pkg-config
  libbenchmark-dev libfmt-dev nlohmann-json3-dev libcli11-dev libxxhash-dev libgtest-dev
  libboost-iostreams-dev liburing-dev
  python3 python3-scipy python3-matplotlib
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: everything is installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
