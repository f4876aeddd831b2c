#!/usr/bin/env bash
# Packs one built binary as a release archive: OUTDIR/hermes-hooks-VERSION-TARGET.tar.gz (the
# binary, README.md, the manual pages and the completion scripts, in one folder of that name)
# and beside it its .sha256 file, in the format `sha256sum -c` reads.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:?usage: packaging/archive.sh OUTDIR TARGET BINARY}"
target="${2:?usage: packaging/archive.sh OUTDIR TARGET BINARY}"
binary="${3:?usage: packaging/archive.sh OUTDIR TARGET BINARY}"
mkdir -p "$out"
out=$(cd "$out" && pwd)

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
name="hermes-hooks-$version-$target"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name"
cp "$binary" "$stage/$name/hermes-hooks"
chmod 755 "$stage/$name/hermes-hooks"
cp -R README.md man completions "$stage/$name/"
# Owner and times fixed, so the same binary gives the same archive (GNU tar; TAR names it where
# `tar` is another, as gtar on macOS).
"${TAR:-tar}" -C "$stage" --owner=0 --group=0 --numeric-owner --mtime='2000-01-01 00:00Z' --sort=name \
  -cf - "$name" | gzip -n >"$out/$name.tar.gz"
(cd "$out" && if command -v sha256sum >/dev/null; then
  sha256sum "$name.tar.gz"
else
  shasum -a 256 "$name.tar.gz"
fi >"$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
