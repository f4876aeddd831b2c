#!/usr/bin/env bash
# Builds the host's wheel into OUTDIR (pyproject.toml: maturin's "bin" bindings, the binary in
# the wheel's scripts). maturin is installed from the package registry into a virtual
# environment under target/packaging/ (a cache) at the version below. Extra arguments go to
# `maturin build` (the release workflow passes --target and --compatibility).
set -euo pipefail
cd "$(dirname "$0")/.."

maturin_version="1.16.0"
out="${1:?usage: packaging/wheel.sh OUTDIR [maturin build arguments...]}"
shift
mkdir -p "$out"
out=$(cd "$out" && pwd)

venv="${HERMES_HOOKS_MATURIN_VENV:-target/packaging/maturin-$maturin_version}"
if ! "$venv/bin/maturin" --version >/dev/null 2>&1; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --disable-pip-version-check --quiet "maturin==$maturin_version"
fi
# The man pages and completion scripts go into the wheel's data, which installs them under the
# environment's share/ (where `man` and bash-completion look beside bin/).
# (maturin's data folder holds the wheel's scheme folders; `data/` is installed at the prefix).
data=target/packaging/wheel-data
share="$data/data/share"
rm -rf "$data"
mkdir -p "$share/man/man1" "$share/bash-completion/completions" "$share/zsh/site-functions" \
  "$share/fish/vendor_completions.d"
cp man/*.1 "$share/man/man1/"
cp completions/hermes-hooks.bash "$share/bash-completion/completions/hermes-hooks"
cp completions/_hermes-hooks "$share/zsh/site-functions/_hermes-hooks"
cp completions/hermes-hooks.fish "$share/fish/vendor_completions.d/hermes-hooks.fish"
"$venv/bin/maturin" build --release --locked --out "$out" "$@"
