#!/usr/bin/env bash
# The Linux CI job: install the dependencies, then build under the sanitizers
# and run every test (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh

# Locales for the locale and transcode rows: en_US.UTF-8 groups digits
# ("1,234,567": ints_out_locale, tests/locale_test.cpp), zh_CN.GB18030 gives
# std::codecvt its GB18030 converter (transcode_gb18030/codecvt).
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
if ! dpkg-query -W -f='${Status}' locales 2>/dev/null | grep -q "install ok installed"; then
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends locales
fi
for l in "en_US.UTF-8 UTF-8" "zh_CN.GB18030 GB18030"; do
  grep -qx "$l" /etc/locale.gen || echo "$l" | $sudo tee -a /etc/locale.gen >/dev/null
done
$sudo locale-gen >/dev/null

cmake --workflow --preset linux-test
