#!/usr/bin/env bash
# Drives the real Claude Code (the pinned version below) against a scripted model on 127.0.0.1 and
# checks what its hooks achieve: natively (the control) and through hermes-hooks.
#
#   check.sh HERMES_HOOKS_BINARY
#
# Installs the agent with npm into target/agents/claude-code (reused when it already holds the
# version). HERMES_HOOKS_AGENT_VERSION picks another version (`latest`: the registry's newest;
# when that is the pinned one, says so and exits 0 without a run), HERMES_HOOKS_AGENT_CACHE
# another directory to install it in. Prints "claude-code: version V" on stderr first. Exits 0
# with a "skipped:" line on stderr when node, npm, python3 or the package cannot be had; 1 when a
# check fails. harness.py says what each check is.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"

package="@anthropic-ai/claude-code"
pinned="2.1.197"
version="${HERMES_HOOKS_AGENT_VERSION:-$pinned}"
prefix="${HERMES_HOOKS_AGENT_CACHE:-$root/target/agents/claude-code}"

skip() {
  echo "claude-code: skipped: $1" >&2
  exit 0
}

binary="${1:-}"
if [ -n "$binary" ]; then
  [ -x "$binary" ] || { echo "claude-code: not an executable: $binary" >&2; exit 1; }
  binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
fi

command -v python3 >/dev/null || skip "python3 is not installed"
command -v node >/dev/null || skip "node is not installed"
command -v npm >/dev/null || skip "npm is not installed"

if [ "$version" = latest ]; then
  version="$(timeout 120 npm view "$package@latest" version 2>/dev/null)" ||
    skip "cannot ask the package registry for the newest $package"
  if [ "$version" = "$pinned" ]; then
    echo "claude-code: version $version is the pinned one" >&2
    exit 0
  fi
fi
echo "claude-code: version $version" >&2

agent="$prefix/node_modules/.bin/claude"
installed() {
  [ -x "$agent" ] && timeout 60 env HOME="$prefix" DISABLE_AUTOUPDATER=1 \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 "$agent" --version 2>/dev/null | grep -q "^$version "
}

if ! installed; then
  rm -rf "$prefix"
  mkdir -p "$prefix"
  if ! timeout 600 npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error \
    "$package@$version" >"$prefix/install.log" 2>&1; then
    tail -n 3 "$prefix/install.log" >&2
    skip "cannot install $package@$version with npm"
  fi
  installed || skip "$package@$version installed but does not start here (see $prefix/install.log)"
fi

exec timeout 1800 python3 "$here/harness.py" "$agent" "$binary"
