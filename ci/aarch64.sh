#!/usr/bin/env bash
# The ARM64 CI job, on Debian/Ubuntu (amd64): installs the aarch64 cross
# compiler, qemu's user-mode emulator and the libraries iobench links, built
# for arm64 (Debian's multiarch packages: the script adds the arm64 dpkg
# architecture when it is missing), then cross-builds iobench and its tests
# (-O2, no sanitizers: everything runs under emulation) and runs every test as
# an ARM64 program under qemu-aarch64 (17 min in all on a shared 2-core VM):
#   cmake --workflow --preset linux-aarch64
# then the default suite at --scale 0.01, verified, under qemu
# (cmake --build --preset linux-aarch64-main-job). docs/architectures.md.
set -euo pipefail
cd "$(dirname "$0")/.."
. ci/dpkg-native.sh

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
foreign=$(dpkg --print-foreign-architectures)
if [ "$(dpkg_native_arch)" != arm64 ] && ! grep -qx arm64 <<<"$foreign"; then
  echo "aarch64: adding the dpkg architecture arm64"
  $sudo dpkg --add-architecture arm64
  # apt-install.sh runs apt-get update before it installs anything.
fi

packages=(
  g++-aarch64-linux-gnu qemu-user
  cmake ninja-build git pkg-config
  nlohmann-json3-dev libcli11-dev libfast-float-dev
  libbenchmark-dev:arm64 libfmt-dev:arm64 libgtest-dev:arm64 libxxhash-dev:arm64 libdragonbox-dev:arm64
  libboost-iostreams-dev:arm64 liburing-dev:arm64 libssl-dev:arm64
)
bash ci/apt-install.sh aarch64 "${packages[@]}"

cmake --workflow --preset linux-aarch64
cmake --build --preset linux-aarch64-main-job
