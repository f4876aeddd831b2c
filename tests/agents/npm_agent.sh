# Shared by the check.sh of agents installed from npm whose version `<program> --version` prints
# alone on a line (Factory Droid, Qwen Code). Sourced after the caller set `name` (as run.sh
# names the agent), `package`, `pinned` and `program`, with the hermes-hooks binary as $1: it
# resolves the version (HERMES_HOOKS_AGENT_VERSION, `latest` for the registry's newest, of
# `newest_package` when the caller names one, as an agent that moved to another package does;
# the pinned one otherwise) and the install folder (HERMES_HOOKS_AGENT_CACHE, else
# target/agents/<name>), installs the agent there when it does not hold that version, prints
# "<name>: version V" on stderr, and runs the agent's harness.py with the agent and the binary.
# Exits 0 with a "<name>: skipped:" line when node, npm, python3 or the package cannot be had,
# and without a run when `latest` is the pinned version.
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

if [ "$version" = latest ]; then
  package="${newest_package:-$package}"
  version="$(timeout 120 npm view "$package@latest" version 2>/dev/null)" ||
    skip "cannot ask the package registry for the newest $package"
  if [ "$version" = "$pinned" ]; then
    echo "$name: version $version is the pinned one" >&2
    exit 0
  fi
fi
echo "$name: version $version" >&2

agent="$prefix/node_modules/.bin/$program"
installed() {
  [ -x "$agent" ] && timeout 60 env HOME="$prefix" "$agent" --version 2>/dev/null | grep -qx "$version"
}

if ! installed; then
  rm -rf "$prefix"
  mkdir -p "$prefix"
  if ! timeout 600 npm install --prefix "$prefix" --no-audit --no-fund --ignore-scripts --loglevel=error \
    "$package@$version" >"$prefix/install.log" 2>&1; then
    tail -n 3 "$prefix/install.log" >&2
    # An agent shipped as a wrapper and one package per platform: the wrapper's newest release
    # can name a platform package the registry does not have (yet).
    missing="$(sed -n 's/.*No matching version found for \([^ ]*[^ .]\)\.\{0,1\}$/\1/p' \
      "$prefix/install.log" | head -n 1)"
    [ -z "$missing" ] || skip "the registry has no $missing, which $package@$version needs"
    skip "cannot install $package@$version with npm"
  fi
  if ! installed; then
    # A wrapper with one optional package per platform installs without the one this machine
    # needs when the registry does not have it (npm skips a missing optional package quietly).
    platform="$(node -p 'process.platform + "-" + process.arch')"
    for wanted in $(node -e '
      const p = require(process.argv[1] + "/node_modules/" + process.argv[2] + "/package.json");
      for (const [n, v] of Object.entries(p.optionalDependencies || {}))
        if (n.endsWith("-" + process.argv[3])) console.log(n + "@" + v);' \
      "$prefix" "$package" "$platform" 2>/dev/null); do
      [ -n "$(timeout 120 npm view "$wanted" version 2>/dev/null)" ] ||
        skip "the registry has no $wanted, the package $package@$version needs on $platform"
    done
    skip "$package@$version installed but does not start here (see $prefix/install.log)"
  fi
fi

exec timeout 1200 python3 "$here/harness.py" "$agent" "$binary"
