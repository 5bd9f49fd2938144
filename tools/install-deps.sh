#!/usr/bin/env bash
# Installs what iobench needs to build and test on Debian/Ubuntu (run as root,
# or with sudo available): compilers (and the program methods' Go, Rust, Java
# and Node.js where none is installed), CMake + Ninja, Google Benchmark, {fmt},
# nlohmann_json, CLI11, xxHash, Dragonbox, GoogleTest, Boost.Iostreams, liburing, fast_float, OpenSSL's
# libcrypto (the SHA-256 of a loaded plugin), spdlog (examples/out-of-tree, built by a test; and a logger of the
# loggers suite, as Boost.Log and glog are) (and Google
# Benchmark's compare.py, which a test runs on iobench's results); and
# for tools/iobench-compare Python 3 with NumPy, SciPy, Matplotlib and tabulate
# (Debian's packages: the system pip is externally managed), SQLAlchemy and
# psycopg2 (its --history, in SQLite or PostgreSQL; the versions CI tests are
# pinned in tools/constraints.txt), python3-venv for its packaging test, PostgreSQL (a throwaway server for the
# history's tests, through pg_virtualenv) and Chromium, in which its HTML report
# is tested; and generates the locales the tests use (en_US.UTF-8, zh_CN.GB18030).
#
#   tools/install-deps.sh           everything
#   tools/install-deps.sh --tools   only what tools/iobench-compare needs to run (no browser, no compilers)
#
# Idempotent: packages already installed (of the build machine's architecture:
# ci/dpkg-native.sh) are left as they are. A Chromium (or
# Google Chrome) already on PATH is used as it is: GitHub's Ubuntu runners have
# one, and Ubuntu's own chromium package is only a wrapper around the snap.
set -euo pipefail
. "$(dirname "$0")/../ci/dpkg-native.sh"

tools_python=(python3 python3-numpy python3-scipy python3-matplotlib python3-tabulate python3-sqlalchemy
  python3-psycopg2 python3-pip)
packages=(
  g++ clang cmake ninja-build git pkg-config
  libbenchmark-dev libbenchmark-tools libfmt-dev nlohmann-json3-dev libcli11-dev libxxhash-dev libdragonbox-dev
  libgtest-dev
  libboost-iostreams-dev liburing-dev libfast-float-dev libssl-dev libspdlog-dev locales valgrind
  libboost-log-dev libgoogle-glog-dev
  "${tools_python[@]}" python3-venv postgresql
)
browser=yes
full=yes
case "${1:-}" in
  "") ;;
  --tools) packages=("${tools_python[@]}"); browser=no; full=no ;;
  *) echo "usage: tools/install-deps.sh [--tools]" >&2; exit 2 ;;
esac

# The program methods' toolchains (docs/external-methods.md): Debian's, only
# where none is found, on PATH or where its own installer puts it (Go's
# /usr/local/go, rustup's ~/.cargo). (tools/cross-check-programs.sh also
# needs hyperfine, which no test does: apt-get install hyperfine.)
if [ "$full" = yes ]; then
  have() { command -v "$1" >/dev/null 2>&1 || [ -x "$2" ]; }
  have go /usr/local/go/bin/go || packages+=(golang-go)
  have rustc "$HOME/.cargo/bin/rustc" || packages+=(rustc)
  have javac /nonexistent || packages+=(default-jdk-headless)
  have node /nonexistent || packages+=(nodejs)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg_installed "$p" || missing+=("$p")
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
if [ "$browser" = yes ] && ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 \
    && ! command -v google-chrome >/dev/null 2>&1; then
  # Debian's chromium is a real package; elsewhere say what the HTML report test needs.
  if grep -qs '^ID=debian' /etc/os-release; then
    missing+=(chromium)
  else
    echo "install-deps: no Chromium on PATH: the HTML report's browser test (tools.report, BrowserTest) will be" \
      "skipped; install Chromium or Google Chrome, or set IOBENCH_CHROMIUM"
  fi
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: every package is installed"
else
  echo "install-deps: installing ${missing[*]}"
  if ! $sudo apt-get update -qq || ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
      --no-install-recommends "${missing[@]}"; then
    echo "install-deps: apt-get could not install ${missing[*]}: is this Debian 12 or Ubuntu 24.04 with its" \
      "package lists reachable, and are you root or allowed to sudo? The package names are Debian's; elsewhere" \
      "install the same libraries by hand (README: Build)" >&2
    exit 1
  fi
fi

# Locales for the locale and transcode rows and their tests: en_US.UTF-8
# groups digits ("1,234,567": ints_out_locale, tests/workloads/locale_test.cpp),
# zh_CN.GB18030 gives std::codecvt its GB18030 converter
# (transcode_gb18030/codecvt). Without them those rows are skipped with the reason.
if [ "$full" = yes ]; then
  generate=no
  for l in "en_US.UTF-8 UTF-8" "zh_CN.GB18030 GB18030"; do
    if ! grep -qx "$l" /etc/locale.gen 2>/dev/null; then
      echo "$l" | $sudo tee -a /etc/locale.gen >/dev/null
      generate=yes
    fi
  done
  if [ "$generate" = yes ] || ! locale -a 2>/dev/null | grep -qi '^zh_CN.gb18030$'; then
    echo "install-deps: generating the locales en_US.UTF-8 and zh_CN.GB18030"
    $sudo locale-gen >/dev/null
  fi
fi
echo "install-deps: done"
