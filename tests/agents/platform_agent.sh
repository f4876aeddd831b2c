# Shared by the check.sh of agents whose npm package is a wrapper that fetches a prebuilt binary
# from a platform package in its postinstall (OpenCode, Kilo Code): the platform package
# (`<platform_prefix>-<os>-<arch>`, holding bin/<program>) is installed alone, with no scripts,
# and its binary run. Sourced after the caller set `name` (as run.sh names the agent), `package`
# (the wrapper, asked for its newest version), `platform_prefix`, `pinned` and `program`, with the
# hermes-hooks binary as $1: as tests/agents/npm_agent.sh otherwise (HERMES_HOOKS_AGENT_VERSION,
# `latest` for the registry's newest; HERMES_HOOKS_AGENT_CACHE, else target/agents/<name>;
# "<name>: version V" on stderr; one "<name>: skipped:" line and exit 0 when it cannot be had;
# no run when `latest` is the pinned version), then runs the agent's harness.py.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"
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

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform="linux-x64" ;;
  Linux-aarch64 | Linux-arm64) platform="linux-arm64" ;;
  Darwin-x86_64) platform="darwin-x64" ;;
  Darwin-arm64) platform="darwin-arm64" ;;
  *) skip "no $package build for $(uname -s) $(uname -m)" ;;
esac
platform_package="$platform_prefix-$platform"

if [ "$version" = latest ]; then
  version="$(timeout 120 npm view "$package@latest" version 2>/dev/null)" ||
    skip "cannot ask the package registry for the newest $package"
  if [ "$version" = "$pinned" ]; then
    echo "$name: version $version is the pinned one" >&2
    exit 0
  fi
fi
echo "$name: version $version" >&2

agent="$prefix/node_modules/$platform_package/bin/$program"
installed() {
  [ -x "$agent" ] && timeout 60 env HOME="$prefix" "$agent" --version 2>/dev/null | grep -qx "$version"
}

if ! installed; then
  rm -rf "$prefix"
  mkdir -p "$prefix"
  if ! timeout 600 npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts --loglevel=error \
    "$platform_package@$version" >"$prefix/install.log" 2>&1; then
    tail -n 3 "$prefix/install.log" >&2
    skip "cannot install $platform_package@$version with npm"
  fi
  installed || skip "$platform_package@$version installed but does not start here (see $prefix/install.log)"
fi

exec timeout 1800 python3 "$here/harness.py" "$agent" "$binary"
