#!/usr/bin/env bash
# Checks hooks against the real GitHub Copilot CLI (the version pinned below), driven without a
# terminal and offline against a fake model on 127.0.0.1: first Copilot's own hook contract (the
# control), then the same effects through `hermes-hooks run --agent copilot` (harness.py says
# which checks).
#
#   tests/agents/copilot/check.sh HERMES_HOOKS_BINARY
#
# The package is installed once into target/agents/copilot and reused while it is the pinned
# version. HERMES_HOOKS_AGENT_VERSION picks another version (`latest`: the registry's newest; when
# that is the pinned one, says so and exits 0 without a run), HERMES_HOOKS_AGENT_CACHE another
# directory to install it in. Prints "copilot: version V" on stderr first. Exit 0 with a `skipped:` line on stderr when node, npm, python3 or the package registry
# is unavailable; exit 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/../../.."

package="@github/copilot"
pinned="1.0.102"
version="${HERMES_HOOKS_AGENT_VERSION:-$pinned}"
prefix="${HERMES_HOOKS_AGENT_CACHE:-target/agents/copilot}"
binary="${1:?usage: check.sh HERMES_HOOKS_BINARY}"

skip() {
  echo "copilot: skipped: $1" >&2
  exit 0
}

command -v node >/dev/null || skip "node is not installed"
command -v npm >/dev/null || skip "npm is not installed"
command -v python3 >/dev/null || skip "python3 is not installed"

if [ "$version" = latest ]; then
  version="$(timeout 120 npm view "$package@latest" version 2>/dev/null)" ||
    skip "cannot ask the package registry for the newest $package"
  if [ "$version" = "$pinned" ]; then
    echo "copilot: version $version is the pinned one" >&2
    exit 0
  fi
fi
echo "copilot: version $version" >&2

installed_version() {
  node -p "require('$(cd "$prefix" 2>/dev/null && pwd)/node_modules/$package/package.json').version" \
    2>/dev/null || true
}

if [ "$(installed_version)" != "$version" ]; then
  rm -rf "$prefix"
  mkdir -p "$prefix"
  log="$prefix/install.log"
  if ! timeout 900 npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts \
    "$package@$version" >"$log" 2>&1; then
    tail -n 3 "$log" >&2
    skip "cannot install $package@$version from the package registry"
  fi
fi

timeout 1800 python3 tests/agents/copilot/harness.py \
  "$prefix/node_modules/.bin/copilot" "$binary"
