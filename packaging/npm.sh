#!/usr/bin/env bash
# Builds the npm packages into OUTDIR as .tgz files: `hermes-hooks` (the launcher, with the
# platform packages as optional dependencies) and the platform package of one binary,
# `@hermes-hooks/<platform>-<arch>` (os and cpu set, so npm installs only the one that fits).
# The layout esbuild and Biome use: nothing is downloaded at install time, and no install script
# runs. The version is Cargo.toml's.
#
# HERMES_HOOKS_BINARY names the binary (default: this checkout's release build, made here);
# HERMES_HOOKS_NPM_PLATFORM its platform as Node names it (default: the host's, e.g. linux-x64).
# The release workflow runs it once per target with both set; the main package is the same
# every time.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:?usage: packaging/npm.sh OUTDIR}"
mkdir -p "$out"
out=$(cd "$out" && pwd)
command -v npm >/dev/null || { echo "packaging/npm.sh: npm is not installed" >&2; exit 1; }

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || { echo "packaging/npm.sh: no version in Cargo.toml" >&2; exit 1; }
platform="${HERMES_HOOKS_NPM_PLATFORM:-$(node -p 'process.platform + "-" + process.arch')}"
binary="${HERMES_HOOKS_BINARY:-}"
if [ -z "$binary" ]; then
  cargo build --release --locked --quiet --bin hermes-hooks
  binary=target/release/hermes-hooks
fi

# Every platform a release builds: the main package lists them all, and the launcher
# (packaging/npm/launcher.sh) and doctor (src/checks/installed.rs) try exactly these.
platforms="linux-x64 linux-arm64 darwin-x64 darwin-arm64"
case " $platforms " in
  *" $platform "*) ;;
  *) echo "packaging/npm.sh: $platform is not one of: $platforms" >&2; exit 1 ;;
esac

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

# The platform package: the binary, and the os and cpu it runs on.
os=${platform%-*}
cpu=${platform#*-}
mkdir -p "$stage/platform/bin"
cp "$binary" "$stage/platform/bin/hermes-hooks"
chmod 755 "$stage/platform/bin/hermes-hooks"
cat >"$stage/platform/package.json" <<JSON
{
  "name": "@hermes-hooks/$platform",
  "version": "$version",
  "description": "The hermes-hooks binary for $os on $cpu (installed by the hermes-hooks package)",
  "license": "MIT OR Apache-2.0",
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/hermes-hooks"],
  "preferUnplugged": true
}
JSON
printf 'The hermes-hooks binary for %s on %s. Install `hermes-hooks`, which picks it.\n' \
  "$os" "$cpu" >"$stage/platform/README.md"

# The main package: the launcher, and each platform package as an optional dependency.
mkdir -p "$stage/main/bin"
cp packaging/npm/launcher.sh "$stage/main/bin/hermes-hooks"
chmod 755 "$stage/main/bin/hermes-hooks"
cp README.md "$stage/main/README.md"
# The man pages (npm links those the `man` field names into the prefix's share/man on a global
# install) and the completion scripts, which a person sources (`hermes-hooks completions SHELL`
# prints the same).
mkdir -p "$stage/main/man" "$stage/main/completions"
cp man/*.1 "$stage/main/man/"
cp completions/hermes-hooks.bash completions/_hermes-hooks completions/hermes-hooks.fish \
  "$stage/main/completions/"
man_pages=""
for page in man/*.1; do
  man_pages="$man_pages${man_pages:+, }\"./$page\""
done
optional=""
for p in $platforms; do
  optional="$optional${optional:+,
}    \"@hermes-hooks/$p\": \"$version\""
done
cat >"$stage/main/package.json" <<JSON
{
  "name": "hermes-hooks",
  "version": "$version",
  "description": "Run and audit agent hooks (Hermes config hooks and Agent Hooks folders) behind a content-pinned consent allowlist",
  "license": "MIT OR Apache-2.0",
  "keywords": ["hooks", "agent", "hermes", "claude-code", "codex", "gemini", "cli"],
  "bin": { "hermes-hooks": "bin/hermes-hooks" },
  "man": [$man_pages],
  "files": ["bin/hermes-hooks", "man", "completions"],
  "os": ["linux", "darwin"],
  "optionalDependencies": {
$optional
  }
}
JSON

(cd "$stage/platform" && npm pack --silent --pack-destination "$out" >/dev/null)
(cd "$stage/main" && npm pack --silent --pack-destination "$out" >/dev/null)
ls "$out"/hermes-hooks-"$version".tgz "$out"/hermes-hooks-"$platform"-"$version".tgz
