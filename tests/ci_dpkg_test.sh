#!/usr/bin/env bash
# tests/ci_dpkg_test.sh SOURCE_DIR WORKDIR
# ci/dpkg-native.sh, the reading of dpkg's answers by the CI scripts, on canned
# output of a machine with two dpkg architectures (amd64 with arm64 or i386
# added: dpkg then answers once per architecture): each query reads one value,
# the build machine's architecture's or the architecture-independent one; and
# ci/apt-install.sh, run with a dpkg and an apt-get that only print and record,
# installs a package of which only the other architecture is installed.
# Needs no dpkg: it runs anywhere bash and awk do.
set -uo pipefail
source=$(cd "$1" && pwd -P)
work=$2
rm -rf "$work"
mkdir -p "$work/bin"
cd "$work" || exit 1

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
# expect WHAT WANT GOT
expect() { [ "$2" = "$3" ] || fail "$1: got '$3', want '$2'"; }

# shellcheck source=../ci/dpkg-native.sh
. "$source/ci/dpkg-native.sh"
tab=$'\t'

# dpkg-query -W -f='${binary:Package}\t${Architecture}\t${source:Package}=${source:Version}\n'
# libboost1.74-dev, as Debian 12 prints it with arm64 added (arm64 first, as dpkg sorts it there).
two_arch="libboost1.74-dev:arm64${tab}arm64${tab}boost1.74=1.74.0+ds1-21
libboost1.74-dev:amd64${tab}amd64${tab}boost1.74=1.74.0+ds1-21"
expect "two architectures, amd64's" "boost1.74=1.74.0+ds1-21" "$(printf '%s\n' "$two_arch" | dpkg_pick amd64)"
expect "two architectures, arm64's" "boost1.74=1.74.0+ds1-21" "$(printf '%s\n' "$two_arch" | dpkg_pick arm64)"
# Two versions during an upgrade of one architecture: the build machine's, never both.
i386="libc6:amd64${tab}amd64${tab}glibc=2.36-9+deb12u14
libc6:i386${tab}i386${tab}glibc=2.36-9+deb12u13"
expect "i386 added, amd64's version" "glibc=2.36-9+deb12u14" "$(printf '%s\n' "$i386" | dpkg_pick amd64)"
expect "i386 added, i386's version" "glibc=2.36-9+deb12u13" "$(printf '%s\n' "$i386" | dpkg_pick i386)"
# An architecture-independent package: one entry, named bare.
expect "Architecture: all" "install ok installed" \
  "$(printf 'nlohmann-json3-dev\tall\tinstall ok installed\n' | dpkg_pick amd64)"
# Only the other architecture's package installed: no value for amd64.
printf 'libboost-iostreams-dev:arm64\tarm64\tinstall ok installed\n' | dpkg_pick amd64 >got
status=$?
expect "only arm64 installed: status" 1 "$status"
expect "only arm64 installed: value" "" "$(cat got)"
# A value holding tabs and spaces is kept whole.
expect "a value with a tab" "a${tab}b c" "$(printf 'p:amd64\tamd64\ta\tb c\n' | dpkg_pick amd64)"

# dpkg -S FILE with a second architecture, either order; a single one; an "all" package.
header=/usr/include/boost/iostreams/device/file_descriptor.hpp
expect "dpkg -S, arm64 first" libboost1.74-dev \
  "$(echo "libboost1.74-dev:arm64, libboost1.74-dev:amd64: $header" | dpkg_pick_owner amd64)"
expect "dpkg -S, amd64 first" libboost1.74-dev \
  "$(echo "libboost1.74-dev:amd64, libboost1.74-dev:i386: $header" | dpkg_pick_owner amd64)"
expect "dpkg -S, one architecture" libboost1.74-dev \
  "$(echo "libboost1.74-dev:amd64: $header" | dpkg_pick_owner amd64)"
expect "dpkg -S, Architecture: all" nlohmann-json3-dev \
  "$(echo "nlohmann-json3-dev: /usr/include/nlohmann/json.hpp" | dpkg_pick_owner amd64)"
echo "libboost1.74-dev:arm64: $header" | dpkg_pick_owner amd64 >got
status=$?
expect "dpkg -S, only arm64: status" 1 "$status"
expect "dpkg -S, only arm64: value" "" "$(cat got)"
echo "dpkg-query: no path found matching pattern /nonexistent" | dpkg_pick_owner amd64 >got
expect "dpkg -S, no owner: status" 1 "$?"

# The scripts through these functions: a dpkg (native amd64) and a dpkg-query
# that answer from a canned table, an apt-get and a sudo that record.
cat >bin/dpkg <<'EOF'
#!/bin/sh
[ "$1" = --print-architecture ] && { echo amd64; exit 0; }
exit 2
EOF
# Prints the lines of $FAKE_DPKG_TABLE ("package<TAB>arch<TAB>status") whose package is the one
# asked for (any architecture for a bare name, as dpkg-query -W does), in the format the caller
# asked for: only the fields ${binary:Package}, ${Architecture} and ${Status} are known.
cat >bin/dpkg-query <<'EOF'
#!/usr/bin/env bash
fmt=""
for a in "$@"; do case $a in -f=*) fmt=${a#-f=} ;; -*) ;; *) pkg=$a ;; esac; done
found=1
while IFS=$'\t' read -r name arch status; do
  case $pkg in *:*) [ "$name:$arch" = "$pkg" ] || continue ;; *) [ "$name" = "$pkg" ] || continue ;; esac
  found=0
  q=$name; [ "$arch" = all ] || q=$name:$arch
  line=${fmt//'${binary:Package}'/$q}
  line=${line//'${Architecture}'/$arch}
  line=${line//'${Status}'/$status}
  printf '%b' "$line"
done <"$FAKE_DPKG_TABLE"
[ $found -eq 0 ] || echo "dpkg-query: no packages found matching $pkg" >&2
exit $found
EOF
cat >bin/apt-get <<'EOF'
#!/bin/sh
echo "apt-get $*" >>"$FAKE_APT_LOG"
EOF
cat >bin/sudo <<'EOF'
#!/bin/sh
exec "$@"
EOF
chmod +x bin/*
printf '%s\t%s\t%s\n' \
  libboost-iostreams-dev arm64 "install ok installed" \
  libboost-iostreams-dev amd64 "deinstall ok config-files" \
  libboost-dev amd64 "install ok installed" \
  libboost-dev i386 "install ok installed" \
  nlohmann-json3-dev all "install ok installed" \
  cmake arm64 "install ok installed" >table
export FAKE_DPKG_TABLE=$PWD/table FAKE_APT_LOG=$PWD/apt.log
PATH=$PWD/bin:$PATH
expect "dpkg_field bare name" "install ok installed" "$(dpkg_field libboost-dev '${Status}')"
expect "dpkg_field PACKAGE:ARCH" "install ok installed" "$(dpkg_field libboost-iostreams-dev:arm64 '${Status}')"
dpkg_installed libboost-iostreams-dev && fail "dpkg_installed: only the arm64 package is installed, amd64's is not"
dpkg_installed nlohmann-json3-dev || fail "dpkg_installed: an 'all' package installed is not seen"
dpkg_installed nosuch && fail "dpkg_installed: a package dpkg does not know"

: >apt.log
bash "$source/ci/apt-install.sh" test libboost-dev nlohmann-json3-dev libboost-iostreams-dev cmake \
  libboost-iostreams-dev:arm64 >out 2>&1 || fail "ci/apt-install.sh exited with $?: $(cat out)"
grep -q "^apt-get install .* libboost-iostreams-dev cmake$" apt.log \
  || fail "ci/apt-install.sh did not install amd64's libboost-iostreams-dev and cmake (only arm64's are): $(cat apt.log out)"
: >apt.log
bash "$source/ci/apt-install.sh" test libboost-dev nlohmann-json3-dev libboost-iostreams-dev:arm64 >out 2>&1 \
  || fail "ci/apt-install.sh (all installed) exited with $?: $(cat out)"
[ ! -s apt.log ] || fail "ci/apt-install.sh installed what is installed: $(cat apt.log)"

[ $failures -eq 0 ] || exit 1
echo "ok: ci/dpkg-native.sh"
