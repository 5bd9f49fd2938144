#!/usr/bin/env bash
# Checks the GitHub Actions workflows with actionlint, installing it with
# `go install` (from source, through the Go module proxy) when it is missing:
# this repository's (.github/workflows/*.yml) and the one examples/ci/ gives
# a user's project (its .github/workflows/iobench.yml, kept here under another
# name so that GitHub does not run it).
set -euo pipefail
cd "$(dirname "$0")/.."

version=v1.7.12
actionlint=$(command -v actionlint || true)
if [ -z "$actionlint" ]; then
  go=$(command -v go || echo /usr/local/go/bin/go)
  gobin=$("$go" env GOBIN)
  [ -n "$gobin" ] || gobin="$("$go" env GOPATH)/bin"
  actionlint=$gobin/actionlint
  if [ ! -x "$actionlint" ]; then
    echo "actionlint: installing $version with go install"
    "$go" install "github.com/rhysd/actionlint/cmd/actionlint@$version"
  fi
fi
"$actionlint" -version | head -1
"$actionlint" -no-color .github/workflows/*.yml examples/ci/github-workflow.yml
echo "actionlint: .github/workflows/*.yml and examples/ci/github-workflow.yml passed"
