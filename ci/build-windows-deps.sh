#!/usr/bin/env bash
# Builds the dependencies of a Windows build into a prefix, for one of the two
# Windows toolchains:
#   ci/build-windows-deps.sh mingw [PREFIX]   MinGW-w64 GCC (default PREFIX build/deps/mingw)
#   ci/build-windows-deps.sh msvc [PREFIX]    cl.exe under wine (default PREFIX build/deps/msvc-libs;
#                                             the toolset from ci/install-msvc.sh)
# which the presets point IOBENCH_MINGW_DEPS / IOBENCH_MSVC_DEPS at:
#   - Google Benchmark, GoogleTest and {fmt}, compiled with that toolchain
#     from the distribution's source packages (apt-get source benchmark
#     googletest fmtlib: the versions the Linux build uses, and no download
#     from anywhere else);
#   - nlohmann_json, CLI11, xxHash and Dragonbox (header-only): copies of just
#     their headers and CMake package files from the installed -dev packages,
#     so the cross compiler never sees the build machine's /usr/include.
# Needs cmake, ninja, dpkg-dev, the toolchain and nlohmann-json3-dev,
# libcli11-dev, libxxhash-dev, libdragonbox-dev (ci/mingw.sh, ci/msvc.sh
# install them).
# Adds a deb-src entry for the distribution's own archive when there is none.
# Idempotent: skips the build when the prefix was made by this same script
# with the same toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
kind=${1:-}
case $kind in
  mingw)
    toolchain=$root/cmake/toolchains/mingw-w64-x86_64.cmake
    compiler=$(x86_64-w64-mingw32-g++-posix --version | head -1)
    ;;
  msvc)
    toolchain=$root/cmake/toolchains/msvc-wine.cmake
    msvc_root=${IOBENCH_MSVC_ROOT:-$root/build/deps/msvc}
    compiler=$(cat "$msvc_root/.installed-by-install-msvc" 2>/dev/null) ||
      { echo "build-windows-deps: no MSVC toolset in $msvc_root: run ci/install-msvc.sh first" >&2; exit 1; }
    ;;
  *)
    echo "usage: ci/build-windows-deps.sh mingw|msvc [PREFIX]" >&2
    exit 2
    ;;
esac
default_prefix=build/deps/$kind
[ "$kind" != msvc ] || default_prefix=build/deps/msvc-libs
prefix=$(realpath -m "${2:-$default_prefix}")
work=$root/build/deps/src-$kind
stamp=$prefix/.built-by-build-windows-deps
me="build-windows-deps ($kind)"

# What the prefix depends on: this script, the toolchain file and the compiler.
want=$(cat "$0" "$toolchain"; printf '%s' "$compiler")
want=$(printf '%s' "$want" | sha256sum | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "$me: $prefix is up to date"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

# apt-get source needs deb-src entries: derive them from the distribution's
# own binary entries (deb822 .sources files, or sources.list lines).
if ! grep -Eqs '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
     /etc/apt/sources.list.d/*.sources; then
  echo "$me: adding deb-src entries"
  src_entries=""
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list.d/ubuntu.sources; do
    [ -f "$f" ] && src_entries+=$(sed 's/^Types: deb$/Types: deb-src/' "$f")$'\n\n'
  done
  if [ -n "$src_entries" ]; then
    printf '%s' "$src_entries" | $sudo tee /etc/apt/sources.list.d/iobench-deb-src.sources >/dev/null
  elif [ -f /etc/apt/sources.list ]; then
    sed -n 's/^deb \(.*\)/deb-src \1/p' /etc/apt/sources.list |
      $sudo tee /etc/apt/sources.list.d/iobench-deb-src.list >/dev/null
  fi
  $sudo apt-get update -qq
fi

rm -rf "$work" "$prefix"
mkdir -p "$work" "$prefix"
chmod 777 "$work"  # apt-get downloads as the _apt user where it can

# fetch PACKAGE: downloads and unpacks the source package (Debian patches
# applied) into $work/PACKAGE; prints its upstream version.
fetch() {
  (cd "$work" && apt-get source -qq --download-only "$1" >/dev/null 2>&1) ||
    (cd "$work" && apt-get source --download-only "$1" >&2)
  local dscs=("$work/$1"_*.dsc)
  local dsc=${dscs[0]}
  dpkg-source --no-check -x "$dsc" "$work/$1" >/dev/null
  sed -n 's/^Version: \([^-+]*\).*/\1/p' "$dsc" | head -1 | sed 's/^[0-9]*://'
}

# build SOURCE_DIR CMAKE_ARGS...: builds with the toolchain and installs into $prefix.
build() {
  local src=$1
  shift
  cmake -S "$src" -B "$src/build-$kind" -G Ninja --toolchain "$toolchain" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DBUILD_SHARED_LIBS=OFF "$@" >/dev/null
  cmake --build "$src/build-$kind"
  cmake --install "$src/build-$kind" >/dev/null
}

version=$(fetch benchmark)
echo "$me: Google Benchmark $version"
build "$work/benchmark" -DGIT_VERSION="$version" -DBENCHMARK_ENABLE_TESTING=OFF \
  -DBENCHMARK_ENABLE_GTEST_TESTS=OFF -DBENCHMARK_ENABLE_WERROR=OFF -DBENCHMARK_ENABLE_LTO=OFF \
  -DBENCHMARK_INSTALL_DOCS=OFF

version=$(fetch googletest)
echo "$me: GoogleTest $version"
build "$work/googletest" -DBUILD_GMOCK=OFF -DINSTALL_GTEST=ON

# {fmt} compiled, not header-only: fmt::output_file (fmt/os.h) lives in its
# library, which no header-only mode provides.
version=$(fetch fmtlib)
echo "$me: fmt $version"
build "$work/fmtlib" -DFMT_DOC=OFF -DFMT_TEST=OFF -DFMT_FUZZ=OFF -DFMT_INSTALL=ON

# Header-only libraries: their headers and (relocatable) CMake package files.
echo "$me: staging nlohmann_json, CLI11, xxHash and Dragonbox headers"
mkdir -p "$prefix/include"
cp -r /usr/include/nlohmann /usr/include/CLI "$prefix/include/"
cp /usr/include/xxhash.h "$prefix/include/"
[ ! -f /usr/include/xxh3.h ] || cp /usr/include/xxh3.h "$prefix/include/"
# Dragonbox: only its header-only part (dragonbox/dragonbox.h), found by
# find_path (cmake/IobenchDependencies.cmake); libdragonbox-dev keeps it under
# include/dragonbox-<version>/.
dragonbox=$(ls -d /usr/include/dragonbox-*/dragonbox 2>/dev/null | head -1 || true)
[ -n "$dragonbox" ] || { echo "$me: no dragonbox/dragonbox.h (install libdragonbox-dev)" >&2; exit 1; }
cp -r "$dragonbox" "$prefix/include/"
# The package files sit where the -dev package put them relative to /usr
# (share/cmake/... or lib/cmake/...); they locate the headers relative to themselves.
for config in nlohmann_jsonConfig.cmake CLI11Config.cmake; do
  dir=$(dirname "$(dpkg -S "*/$config" 2>/dev/null | grep -o '/usr/[^ ]*cmake/[^ ]*/'"$config"'$' | head -1)")
  [ "$dir" != . ] || { echo "$me: no $config (install nlohmann-json3-dev, libcli11-dev)" >&2; exit 1; }
  mkdir -p "$prefix/${dir#/usr/}"
  cp -r "$dir/." "$prefix/${dir#/usr/}/"
done

printf '%s\n' "$want" > "$stamp"
echo "$me: installed into $prefix"
