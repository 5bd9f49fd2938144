#!/usr/bin/env bash
# The Linux CI job: install the dependencies and the locales the tests use
# (tools/install-deps.sh), then build under the sanitizers and run every test
# (the README's test command).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh

cmake --workflow --preset linux-test
