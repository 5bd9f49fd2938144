# ci/dpkg-native.sh: sourced (not run) by the scripts that ask dpkg about a
# package (ci/apt-install.sh, ci/build-windows-deps.sh, tools/install-deps.sh).
# On a machine with a second dpkg architecture (`dpkg --add-architecture arm64`
# for cross builds, i386 for 32-bit wine) dpkg answers once per installed
# architecture: `dpkg-query -W -f='${source:Version}' libboost1.74-dev` prints
# two versions glued together, and `dpkg -S FILE` names
# "libboost1.74-dev:arm64, libboost1.74-dev:amd64". These functions read one
# answer: the package of the build machine's architecture
# (`dpkg --print-architecture`), or of the architecture given as PACKAGE:ARCH,
# or the architecture-independent one ("all").
# The parsing functions (dpkg_pick, dpkg_pick_owner) read dpkg's output on
# stdin, so that tests/ci_dpkg_test.sh runs them on canned output of two
# architectures.

# dpkg_native_arch: prints the build machine's dpkg architecture (amd64, arm64, ...).
dpkg_native_arch() {
  dpkg --print-architecture
}

# dpkg_pick ARCH: reads lines "PACKAGE<TAB>ARCHITECTURE<TAB>VALUE" (what
# dpkg_field asks dpkg-query for) and prints the VALUE of the first line whose
# ARCHITECTURE is ARCH or "all", once. Prints nothing (status 1) when no line is.
dpkg_pick() {
  awk -F '\t' -v arch="$1" '
    ($2 == arch || $2 == "all") && !done { v = $0; sub(/^[^\t]*\t[^\t]*\t/, "", v); print v; done = 1 }
    END { exit !done }'
}

# dpkg_pick_owner ARCH: reads the output of `dpkg -S FILE` for one FILE
# ("pkg1:arm64, pkg1:amd64: /path") and prints the package name (without its
# architecture) of the entry of ARCH, or of an entry with no architecture (an
# "all" or single-architecture package, which dpkg names bare). Status 1 when
# no entry is.
dpkg_pick_owner() {
  local line owners entry
  local -a list
  while IFS= read -r line; do
    owners=${line%%: /*}
    [ "$owners" != "$line" ] || continue  # "dpkg-query: no path found matching ..."
    IFS=',' read -r -a list <<<"$owners"
    for entry in "${list[@]}"; do
      entry=${entry# }
      case $entry in
        *:"$1") printf '%s\n' "${entry%:*}"; return 0 ;;
        *:*) ;;
        ?*) printf '%s\n' "$entry"; return 0 ;;
      esac
    done
  done
  return 1
}

# dpkg_arch_of PACKAGE: the architecture PACKAGE asks for: ARCH of PACKAGE:ARCH, else the build machine's.
dpkg_arch_of() {
  case $1 in
    *:*) printf '%s\n' "${1##*:}" ;;
    *) dpkg_native_arch ;;
  esac
}

# dpkg_field PACKAGE FORMAT: prints dpkg-query's FORMAT (e.g. '${Status}',
# '${source:Package}=${source:Version}') for the one installed (or known)
# PACKAGE of dpkg_arch_of's architecture or "all". Status 1, nothing printed,
# when dpkg knows no such package.
dpkg_field() {
  # shellcheck disable=SC2016  # dpkg-query's own ${...} fields
  dpkg-query -W -f='${binary:Package}\t${Architecture}\t'"$2"'\n' -- "$1" 2>/dev/null |
    dpkg_pick "$(dpkg_arch_of "$1")"
}

# dpkg_installed PACKAGE: status 0 when PACKAGE (of the build machine's
# architecture, or the one it names, or "all") is installed.
dpkg_installed() {
  # shellcheck disable=SC2016
  [ "$(dpkg_field "$1" '${Status}')" = "install ok installed" ]
}

# dpkg_owner FILE: the package (of the build machine's architecture) that installed FILE.
dpkg_owner() {
  dpkg -S "$1" 2>/dev/null | dpkg_pick_owner "$(dpkg_native_arch)"
}
