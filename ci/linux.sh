#!/usr/bin/env bash
# The Linux CI job: install the dependencies and the locales the tests use
# (tools/install-deps.sh), then build under the sanitizers and run every test
# (the README's test command); then the regression gate's end-to-end
# scenarios with a release build (ci/gate-scenarios.sh: the sanitized tree
# cannot count instructions, so its ctest skips them).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh

cmake --workflow --preset linux-test
bash ci/gate-scenarios.sh
