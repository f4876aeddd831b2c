#!/usr/bin/env bash
# Checks hermes-hooks against a real Hermes Agent: installs hermes-agent (the version below) into
# a virtual environment under target/, then compares payloads, answers, registered hooks and
# allowlists on the same HERMES_HOME (tests/interop/harness.py says what exactly), and drives
# whole agent turns against a scripted model on 127.0.0.1 (tests/interop/agent_loop.py).
#
# Skips, with a message and exit 0, when python3 is missing or the package registry cannot be
# reached. Exit 1 when the two tools disagree. HERMES_INTEROP_VENV chooses another environment.
#
# Newer Hermes: `tests/interop/newest.sh DIR`, with DIR holding newer Hermes source files laid out
# as in the package (agent/shell_hooks.py at least), reuses this environment without changing it:
# it copies the site-packages to a scratch folder, puts DIR's files over them (with small stand-ins
# for helpers the newer files import and this version lacks), and runs each hook through that
# Hermes's own reading and through `hermes-hooks run`. It prints ok/differs per case and exits 0:
# a report of drift, not a gate.
set -euo pipefail
cd "$(dirname "$0")/../.."

version="0.19.0"
# HERMES_HOOKS_CLIENTS_CACHE, when set, is a folder outside the checkout that keeps the virtual
# environment between runs (CI sets it); target/ otherwise.
cache="${HERMES_HOOKS_CLIENTS_CACHE:-target}"
venv="${HERMES_INTEROP_VENV:-$cache/interop/venv-$version}"

skip() {
  echo "interop: skipped: $1" >&2
  exit 0
}

command -v python3 >/dev/null || skip "python3 is not installed"

# Another run on this machine may be making the same environment: one at a time.
mkdir -p "$(dirname "$venv")"
if command -v flock >/dev/null; then
  exec 9>"$venv.lock"
  flock 9
fi
if ! "$venv/bin/python" -c "import agent.shell_hooks, hermes_cli.hooks" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv" || skip "python3 cannot create a virtual environment (is the venv module installed?)"
  log="$venv/install.log"
  if ! timeout 900 "$venv/bin/pip" install --disable-pip-version-check --quiet \
    "hermes-agent==$version" >"$log" 2>&1; then
    tail -n 3 "$log" >&2
    rm -rf "$venv"
    skip "cannot install hermes-agent==$version from the package registry"
  fi
fi

cargo build --locked --quiet --bin hermes-hooks
"$venv/bin/python" tests/interop/harness.py target/debug/hermes-hooks
if command -v timeout >/dev/null; then
  "$venv/bin/python" tests/interop/agent_loop.py target/debug/hermes-hooks
else
  echo "interop: agent loop skipped: the timeout command is not installed" >&2
fi
