#!/usr/bin/env bash
# A drift report against a newer Hermes than the one run.sh pins: DIR holds newer Hermes source
# files laid out as in the package (at least agent/shell_hooks.py). Copies the pinned virtual
# environment's site-packages into a scratch folder, lays DIR's files over the copy (the cached
# environment is never changed), and runs tests/interop/newest.py there. Prints ok/differs per
# case and exits 0 either way; skips with one line when DIR is not given or there is no pinned
# environment (run tests/interop/run.sh once first).
#
#   tests/interop/newest.sh DIR
set -euo pipefail
cd "$(dirname "$0")/../.."

dir="${1:-}"
venv="${HERMES_INTEROP_VENV:-target/interop/venv-0.19.0}"

skip() {
  echo "interop newest: skipped: $1" >&2
  exit 0
}

[ -n "$dir" ] || skip "no folder of newer Hermes source given (tests/interop/newest.sh DIR)"
[ -f "$dir/agent/shell_hooks.py" ] || skip "$dir has no agent/shell_hooks.py"
[ -x "$venv/bin/python" ] || skip "no Hermes environment at $venv (run tests/interop/run.sh first)"
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')

scratch=$(mktemp -d "${TMPDIR:-/tmp}/hermes-newest-overlay.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
cp -a "$site" "$scratch/site-packages"
cp -R "$dir/." "$scratch/site-packages/"
"$venv/bin/python" tests/interop/overlay_standins.py "$scratch/site-packages"

cargo build --locked --quiet --bin hermes-hooks
PYTHONPATH="$scratch/site-packages" "$venv/bin/python" tests/interop/newest.py target/debug/hermes-hooks
