#!/usr/bin/env bash
# Drives the real Factory Droid (the pinned version below) against a scripted model on 127.0.0.1
# (its `customModels` setting, Anthropic's API) and checks what its hooks achieve: natively (the
# control) and through hermes-hooks.
#
#   check.sh HERMES_HOOKS_BINARY
#
# Installs the agent with npm into target/agents/droid (reused when it already holds the
# version). HERMES_HOOKS_AGENT_VERSION picks another version (`latest`: the registry's newest;
# when that is the pinned one, says so and exits 0 without a run), HERMES_HOOKS_AGENT_CACHE
# another directory to install it in. Prints "droid: version V" on stderr first. Exits 0 with a
# "skipped:" line on stderr when node, npm, python3 or the package cannot be had; 1 when a check
# fails. harness.py says what each check is.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

package="droid"
pinned="0.215.0"
version="${HERMES_HOOKS_AGENT_VERSION:-$pinned}"
prefix="${HERMES_HOOKS_AGENT_CACHE:-$root/target/agents/droid}"

skip() {
  echo "droid: skipped: $1" >&2
  exit 0
}

binary="${1:?usage: check.sh HERMES_HOOKS_BINARY}"
[ -x "$binary" ] || { echo "droid: not an executable: $binary" >&2; exit 1; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

command -v python3 >/dev/null || skip "python3 is not installed"
command -v node >/dev/null || skip "node is not installed"
command -v npm >/dev/null || skip "npm is not installed"

if [ "$version" = latest ]; then
  version="$(timeout 120 npm view "$package@latest" version 2>/dev/null)" ||
    skip "cannot ask the package registry for the newest $package"
  if [ "$version" = "$pinned" ]; then
    echo "droid: version $version is the pinned one" >&2
    exit 0
  fi
fi
echo "droid: version $version" >&2

agent="$prefix/node_modules/.bin/droid"
installed() {
  [ -x "$agent" ] && timeout 60 env HOME="$prefix" "$agent" --version 2>/dev/null | grep -qx "$version"
}

if ! installed; then
  rm -rf "$prefix"
  mkdir -p "$prefix"
  if ! timeout 600 npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts --loglevel=error \
    "$package@$version" >"$prefix/install.log" 2>&1; then
    tail -n 3 "$prefix/install.log" >&2
    skip "cannot install $package@$version with npm"
  fi
  installed || skip "$package@$version installed but does not start here (see $prefix/install.log)"
fi

exec timeout 1200 python3 "$here/harness.py" "$agent" "$binary"
