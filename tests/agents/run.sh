#!/usr/bin/env bash
# Drives the real agents (Claude Code, Codex CLI, Gemini CLI, GitHub Copilot CLI) against a fake
# model server on 127.0.0.1, each wired with `hermes-hooks install`, and checks that every decision
# arrives: block, rewrite, context and the keep-working gate (tests/agents/<agent>/check.sh for
# each).
# Each agent's own native hook runs first in the same harness, as a control.
#
# The agents are installed with npm at pinned versions into target/agents/ (a cache). Skips,
# with one line and exit 0, when node or npm is missing or the registry cannot be reached; an
# agent that cannot be installed skips itself the same way. Exit 1 when a check fails.
# HERMES_HOOKS_AGENTS="claude-code gemini" runs only those.
set -euo pipefail
cd "$(dirname "$0")/../.."

skip() {
  echo "agents: skipped: $1" >&2
  exit 0
}

command -v node >/dev/null || skip "node is not installed"
command -v npm >/dev/null || skip "npm is not installed"
command -v python3 >/dev/null || skip "python3 is not installed (the fake model server needs it)"

cargo build --locked --quiet --bin hermes-hooks
binary="$PWD/target/debug/hermes-hooks"

failed=()
skipped=()
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for agent in ${HERMES_HOOKS_AGENTS:-claude-code codex gemini copilot}; do
  check="tests/agents/$agent/check.sh"
  if [ ! -f "$check" ]; then
    echo "agents: $agent: no harness at $check" >&2
    failed+=("$agent")
    continue
  fi
  echo "agents: $agent" >&2
  # The check's own lines pass through (its stderr through tee, waited for as part of the
  # pipeline); a `skipped:` line among them marks the agent skipped.
  if ! { bash "$check" "$binary" 2>&1 >&3 3>&- | tee "$log" >&2; } 3>&1; then
    failed+=("$agent")
  elif grep -q "skipped:" "$log"; then
    skipped+=("$agent")
  fi
done

if [ "${#failed[@]}" -gt 0 ]; then
  echo "agents: failed: ${failed[*]}" >&2
  exit 1
fi
if [ "${#skipped[@]}" -gt 0 ]; then
  echo "agents: every check that ran passed; skipped: ${skipped[*]}" >&2
else
  echo "agents: every check passed" >&2
fi
