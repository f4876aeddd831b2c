#!/usr/bin/env bash
# Drives the real Codex CLI (pinned below) against a scripted model on 127.0.0.1 and checks
# what its hooks achieve: first its own hooks wired by hand (the control), then hermes-hooks.
#
# Usage: tests/agents/codex/check.sh <hermes-hooks binary>
# HERMES_HOOKS_AGENT_VERSION picks another version (`latest`: the registry's newest; when that is
# the pinned one, says so and exits 0 without a run), HERMES_HOOKS_AGENT_CACHE another directory
# to install it in (target/agents/codex by default). Prints "codex: version V" on stderr first.
# Exit 0 when every check passed, or (with a `skipped:` line on stderr) when the agent cannot be
# installed here; exit 1 when a check failed.
set -euo pipefail

PINNED="0.169.0"
VERSION="${HERMES_HOOKS_AGENT_VERSION:-$PINNED}"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
cache="${HERMES_HOOKS_AGENT_CACHE:-$root/target/agents/codex}"
hermes="${1:-}"

skip() {
    echo "skipped: codex: $*" >&2
    exit 0
}

if [[ -n "$hermes" && ! -x "$hermes" ]]; then
    echo "check.sh: $hermes is not an executable hermes-hooks binary" >&2
    exit 1
fi
command -v python3 >/dev/null || skip "python3 is not installed"
command -v git >/dev/null || skip "git is not installed"

if [[ "$VERSION" == latest ]]; then
    command -v npm >/dev/null || skip "npm is not installed"
    VERSION="$(timeout 120 npm view @openai/codex@latest version 2>/dev/null)" ||
        skip "cannot ask the package registry for the newest @openai/codex"
    if [[ "$VERSION" == "$PINNED" ]]; then
        echo "codex: version $VERSION is the pinned one" >&2
        exit 0
    fi
fi
PACKAGE="@openai/codex@${VERSION}"
echo "codex: version $VERSION" >&2

installed_version() {
    local manifest="$cache/node_modules/@openai/codex/package.json"
    [[ -f "$manifest" ]] || return 0
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("version",""))' "$manifest"
}

native_binary() {
    # The npm package ships the native binary in a platform package of its own.
    local arch
    case "$(uname -m)" in
        x86_64 | amd64) arch="x64" ;;
        aarch64 | arm64) arch="arm64" ;;
        *) return 0 ;;
    esac
    find "$cache/node_modules/@openai/codex-linux-$arch/vendor" -path '*/bin/codex' -type f \
        2>/dev/null | head -n 1
}

if [[ "$(installed_version)" != "$VERSION" || -z "$(native_binary)" ]]; then
    command -v npm >/dev/null || skip "npm is not installed"
    rm -rf "$cache/node_modules" "$cache/package.json" "$cache/package-lock.json"
    mkdir -p "$cache"
    if ! timeout 600 npm install --prefix "$cache" --no-audit --no-fund --silent "$PACKAGE" \
        >"$cache/npm.log" 2>&1; then
        skip "npm could not install $PACKAGE (see $cache/npm.log)"
    fi
fi
codex="$(native_binary)"
[[ -n "$codex" && -x "$codex" ]] || skip "no native linux binary in $PACKAGE for $(uname -m)"
"$codex" --version | grep -q "$VERSION" || skip "$codex is not version $VERSION"

runs="$cache/runs"
rm -rf "$runs"
mkdir -p "$runs"
exec python3 "$here/drive.py" "$codex" "$runs" ${hermes:+"$hermes"}
