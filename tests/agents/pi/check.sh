#!/usr/bin/env bash
# Drives the real Pi (the pinned version below) against a scripted model on 127.0.0.1 (its
# models.json provider, OpenAI's chat completions) and checks what an extension achieves: Pi's
# own (the control) and hermes-hooks's (src/agents/pi_extension/hermes-hooks.js).
#
#   check.sh HERMES_HOOKS_BINARY
#
# Installs the agent with npm into target/agents/pi. As tests/agents/npm_agent.sh, which it
# follows line for line except that `pi --version` prints the version on stderr:
# HERMES_HOOKS_AGENT_VERSION (`latest` for the registry's newest; the pinned one otherwise),
# HERMES_HOOKS_AGENT_CACHE (else target/agents/pi), "pi: version V" on stderr, one "pi: skipped:"
# line and exit 0 when node, npm, python3 or the package cannot be had, no run when `latest` is
# the pinned version. ../plugin_agents.py says what each check is.
set -euo pipefail
name="pi"
package="@mariozechner/pi-coding-agent"
pinned="0.73.1"
program="pi"
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
version="${HERMES_HOOKS_AGENT_VERSION:-$pinned}"
prefix="${HERMES_HOOKS_AGENT_CACHE:-$root/target/agents/$name}"

skip() {
  echo "$name: skipped: $1" >&2
  exit 0
}

binary="${1:?usage: check.sh HERMES_HOOKS_BINARY}"
[ -x "$binary" ] || { echo "$name: not an executable: $binary" >&2; exit 1; }
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"

command -v python3 >/dev/null || skip "python3 is not installed"
command -v node >/dev/null || skip "node is not installed"
command -v npm >/dev/null || skip "npm is not installed"

if [ "$version" = latest ]; then
  version="$(timeout 120 npm view "$package@latest" version 2>/dev/null)" ||
    skip "cannot ask the package registry for the newest $package"
  if [ "$version" = "$pinned" ]; then
    echo "$name: version $version is the pinned one" >&2
    exit 0
  fi
fi
echo "$name: version $version" >&2

agent="$prefix/node_modules/.bin/$program"
# Pi prints its version on stderr.
installed() {
  [ -x "$agent" ] && timeout 60 env HOME="$prefix" "$agent" --version 2>&1 | grep -qx "$version"
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

exec timeout 1800 python3 "$here/harness.py" "$agent" "$binary"
