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
#   - Boost.Iostreams: its compiled part (file_descriptor.cpp, mapped_file.cpp;
#     no compression filters) built with that toolchain from the source
#     package of the installed Boost headers (ci/boost-iostreams/), and
#     those headers, copied: the Windows builds compile with the same Boost
#     headers as the Linux build;
#   - nlohmann_json, CLI11, xxHash and Dragonbox (header-only): copies of just
#     their headers and CMake package files from the installed -dev packages,
#     so the cross compiler never sees the build machine's /usr/include.
# Needs cmake, ninja, dpkg-dev, the toolchain and nlohmann-json3-dev,
# libcli11-dev, libxxhash-dev, libdragonbox-dev and libboost-dev, Boost's
# headers, which libboost-iostreams-dev installs too (ci/mingw.sh, ci/msvc.sh
# install them).
# Adds a deb-src entry for the distribution's own archive when there is none.
# Idempotent: skips the build when the prefix was made by this same script
# with the same toolchain and the same Boost package.
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

# Boost: the package that installed the headers the Linux build compiles
# with (libboost1.74-dev on Debian 12, which libboost-dev and
# libboost-iostreams-dev depend on), and its source package and version
# (boost1.74=1.74.0+ds1-21).
boost_header=/usr/include/boost/iostreams/device/file_descriptor.hpp
# One answer of dpkg on a machine with a second architecture (ci/dpkg-native.sh).
. "$root/ci/dpkg-native.sh"
boost_dev=$(dpkg_owner "$boost_header") || { echo "$me: no $boost_header (install libboost-dev)" >&2; exit 1; }
# shellcheck disable=SC2016  # dpkg-query's own ${...} fields
boost_source=$(dpkg_field "$boost_dev" '${source:Package}=${source:Version}') ||
  { echo "$me: dpkg knows no $boost_dev of architecture $(dpkg_native_arch)" >&2; exit 1; }

# What the prefix depends on: this script, the Boost.Iostreams build, the
# toolchain file, the compiler and the Boost package whose headers are copied.
want=$(cat "$0" ci/boost-iostreams/* "$toolchain"; printf '%s\n' "$compiler" "$boost_source")
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

# Boost.Iostreams. Its sources come from the Boost source package, which is
# large (61 MB on Debian 12): it is downloaded once into build/deps/downloads
# and kept there (apt-get source checks the files it finds there against the
# package's hashes, and downloads only what is missing or differs), and only
# what the build needs is unpacked from it: libs/iostreams/src/{file_descriptor,
# mapped_file}.cpp and the license. No Debian patch is applied: the script
# stops if one changes libs/iostreams/src (none does in 1.74.0+ds1-21; those
# that change headers are in the installed headers already).
# The headers are the installed ones, /usr/include/boost, copied whole (162 MB):
# the very files the Linux build compiles with, which Debian installed from
# the same source package with its patches applied.
boost_version=$(printf '%s' "${boost_source#*=}" | sed 's/^[0-9]*://; s/[-+~].*//')
echo "$me: Boost.Iostreams $boost_version ($boost_source)"
downloads=$root/build/deps/downloads
mkdir -p "$downloads"
chmod 777 "$downloads"
(cd "$downloads" && apt-get source -qq --download-only "$boost_source" >/dev/null 2>&1) ||
  (cd "$downloads" && apt-get source --download-only "$boost_source" >&2)
boost_files=$downloads/${boost_source%%=*}_$(printf '%s' "${boost_source#*=}" | sed 's/^[0-9]*://')
boost_upstream=${boost_files%-*}
boost_src=$work/boost
mkdir -p "$boost_src/debian"
debian_tars=("$boost_files".debian.tar.*)
tar -xf "${debian_tars[0]}" -C "$boost_src" debian/patches
if [ -f "$boost_src/debian/patches/series" ]; then
  while read -r patch _; do
    case $patch in '' | '#'*) continue ;; esac
    if grep -Eq '^\+\+\+ [^ ]*/libs/iostreams/src/' "$boost_src/debian/patches/$patch"; then
      echo "$me: Debian's patch $patch changes libs/iostreams/src: apply it before building" >&2
      exit 1
    fi
  done < "$boost_src/debian/patches/series"
fi
orig_tars=("$boost_upstream".orig.tar.*)
tar -xf "${orig_tars[0]}" -C "$boost_src" --strip-components=1 --wildcards --no-wildcards-match-slash \
  '*/libs/iostreams/src/file_descriptor.cpp' '*/libs/iostreams/src/mapped_file.cpp' '*/LICENSE_1_0.txt'
mkdir -p "$prefix/include"
cp -r /usr/include/boost "$prefix/include/"
cmake -S "$root/ci/boost-iostreams" -B "$boost_src/build-$kind" -G Ninja --toolchain "$toolchain" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DBOOST_IOSTREAMS_SOURCE_DIR="$boost_src/libs/iostreams/src" -DBOOST_INCLUDE_DIR="$prefix/include" \
  -DBOOST_LICENSE_FILE="$boost_src/LICENSE_1_0.txt" -DBOOST_VERSION="$boost_version" >/dev/null
cmake --build "$boost_src/build-$kind"
cmake --install "$boost_src/build-$kind" >/dev/null

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
