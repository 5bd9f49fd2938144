#!/usr/bin/env bash
# wine-msvc.sh TOOL [ARGS...]: runs one of Microsoft's build tools (cl.exe,
# link.exe, lib.exe, rc.exe) under wine as if it were a Linux program, for the
# msvc-wine toolchain (cmake/toolchains/msvc-wine.cmake). The thin wrappers
# beside this script (cl, link, lib, rc) call it with their tool's name.
#
# The toolset is the one ci/install-msvc.sh unpacks: IOBENCH_MSVC_ROOT, or
# build/deps/msvc of the source tree holding this script. INCLUDE and LIB
# point into it as Windows paths (Z: is wine's drive for /).
#
# Paths are translated both ways:
#  - in: an argument that is an absolute Linux path (/src/a.cpp), or an option
#    ending in one (-I/src, /Fo/b/a.obj, /LIBPATH:/lib, /external:I/x), gets
#    the drive letter (Z:/src/a.cpp) when its parent directory exists: a bare
#    /src/a.cpp would be read as an option. Response files (@file) are
#    rewritten the same way, token by token, into a temporary copy. Macro
#    definitions (-D, /D) are left as they are: their values are the program's.
#    cl's /Zi becomes /Z7 (below).
#  - out: the paths the tools print (/showIncludes' "Note: including file:"
#    lines, which Ninja reads to track header dependencies, and the file name
#    that starts a diagnostic) become Linux paths again, and CRs go.
#
# Wine runs in its own prefix, IOBENCH_MSVC_ROOT/wineprefix, through
# cmake/toolchains/wine-run.sh: one wineserver for every tool of a build, kept
# for 30 minutes after its last client (IOBENCH_WINE_LINGER), with wine's
# background processes started on /dev/null before any tool runs; the tool's
# own output goes through files (see the end).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tool=$1
shift

root=${IOBENCH_MSVC_ROOT:-$here/../../../build/deps/msvc}
if [ ! -d "$root/toolset/VC/Tools/MSVC" ]; then
  echo "wine-msvc.sh: no MSVC toolset in $root/toolset: run ci/install-msvc.sh (or set IOBENCH_MSVC_ROOT)" >&2
  exit 2
fi
root=$(cd "$root" && pwd)
toolset=$root/toolset
msvc=$(ls -d "$toolset"/VC/Tools/MSVC/*/ | tail -1)
msvc=${msvc%/}
sdk_include=$(ls -d "$toolset/Windows Kits/10/Include"/*/ | tail -1)
sdk_version=$(basename "$sdk_include")
sdk="$toolset/Windows Kits/10"

# win PATH: the Windows spelling of an absolute Linux path.
win() {
  local p="Z:$1"
  printf '%s' "${p//\//\\}"
}

INCLUDE="$(win "$msvc/include");$(win "$sdk/Include/$sdk_version/ucrt");$(win "$sdk/Include/$sdk_version/shared");$(win "$sdk/Include/$sdk_version/um")"
LIB="$(win "$msvc/lib/x64");$(win "$sdk/Lib/$sdk_version/ucrt/x64");$(win "$sdk/Lib/$sdk_version/um/x64")"
export INCLUDE LIB LIBPATH="$LIB" WINEDEBUG=-all
case $tool in
  rc.exe) exe="$sdk/bin/$sdk_version/x64/rc.exe" ;;
  *) exe="$msvc/bin/Hostx64/x64/$tool" ;;
esac

# translate ARG: prints ARG with the drive letter on the Linux path it is or
# ends in (see above). Only the options that take a path are looked into:
# /FoCMakeFiles/tmp/a.obj is a relative path, not /Fo... and /tmp.
path_option='^([-/](I|FI|F[oedpaimrR]|Y[uc]|external:I|[A-Za-z]+:))(/.*)$'
translate_option() {
  local a=$1
  shopt -s nocasematch  # link.exe's options: /OUT:, /out:, /LibPath:
  if [[ $a =~ $path_option ]] && [ -d "$(dirname "${BASH_REMATCH[3]}")" ]; then
    a=${BASH_REMATCH[1]}Z:${BASH_REMATCH[3]}
  fi
  printf '%s' "$a"
}
translate() {
  local a=$1 q=""
  case $a in
    \"*\") q=\"; a=${a#\"}; a=${a%\"} ;;
  esac
  case $a in
    [-/][DU]*) ;;
    /*)
      if [ "$(dirname "$a")" != / ] && [ -d "$(dirname "$a")" ]; then
        a=Z:$a
      else
        a=$(translate_option "$a")
      fi
      ;;
    -*) a=$(translate_option "$a") ;;
  esac
  printf '%s' "$q$a$q"
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wine-msvc.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

args=()
for a in "$@"; do
  case $a in
    @*)
      # A response file: the same translation for each of its tokens (CMake
      # writes one token per line or separated by spaces, quoted when they
      # hold spaces; the quotes are kept).
      rsp=$tmp/$(basename "${a#@}")
      set -f
      while IFS= read -r line || [ -n "$line" ]; do
        line=${line%$'\r'}
        out=""
        for token in $line; do
          out+="$(translate "$token") "
        done
        printf '%s\r\n' "${out% }"
      done <"${a#@}" >"$rsp"
      set +f
      args+=("@Z:$rsp")
      ;;
    # /Zi and /ZI write debug information through the PDB server
    # (mspdbsrv.exe), which fails under wine (C1902 "Program database
    # manager mismatch"): the same information goes into the object (/Z7).
    [-/]Z[iI])
      if [ "$tool" = cl.exe ]; then args+=(/Z7); else args+=("$a"); fi
      ;;
    *) args+=("$(translate "$a")") ;;
  esac
done

# Linux paths in what the tool prints: /showIncludes lines whole, and the
# path that starts a diagnostic ("Z:\src\a.cpp(12): warning C4244: ...").
unixify='s/\r$//
/^Note: including file:/{
  s/[Zz]:\\/\//
  s/\\/\//g
}
/^[Zz]:[\\/]/{
  s/^[Zz]://
  :a
  s/^([^(:]*)\\/\1\//
  ta
}'

wine=$(command -v wine || command -v wine64 || echo /usr/lib/wine/wine64)
export IOBENCH_WINE_LINGER=${IOBENCH_WINE_LINGER:-1800}
# The tool's output goes to files, read when it has ended: a wine background
# process that the tool might start (when no server runs for the prefix) and
# that lives on would hold a pipe open, and the build would wait forever.
# A tool that fails without printing a word did not get to run (seen once in
# CI: cl.exe on an unchanged Google Benchmark source under a loaded machine):
# it runs again, twice at most. A real error always comes with a diagnostic.
for attempt in 1 2 3; do
  sh "$here/../wine-run.sh" "$wine" "$root/wineprefix" "$exe" "${args[@]}" >"$tmp/stdout" 2>"$tmp/stderr"
  status=$?
  if [ "$status" -eq 0 ] || [ -s "$tmp/stdout" ] || [ -s "$tmp/stderr" ] || [ "$attempt" -eq 3 ]; then
    break
  fi
  echo "wine-msvc.sh: $tool exited with status $status without a word; running it again" >&2
done
sed -E "$unixify" "$tmp/stderr" >&2
sed -E "$unixify" "$tmp/stdout"
exit "$status"
