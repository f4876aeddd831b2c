#!/usr/bin/env bash
# Drives the real agents (Claude Code, Codex CLI, Gemini CLI, GitHub Copilot CLI, Factory Droid,
# Qwen Code) against a fake model server on 127.0.0.1, each wired with `hermes-hooks install`, and
# checks that every decision arrives: block, rewrite (or the deny that replaces it), context, the
# keep-working gate and the ask for a person, which headless must not run the call
# (tests/agents/<agent>/check.sh for each).
# Each agent's own native hook runs first in the same harness, as a control.
# The agents that take plugins instead of hooks (OpenCode, Kilo Code, Pi) run the shipped plugin
# module `install <agent>` writes, and Cline the scripts it writes (tests/agents/plugin_agents.py
# says what each check is: block, rewrite, context, consent, failing closed with `serve` (Cline:
# `run`) killed or the binary gone, and a hostile model's escapes); they have no ask, gate, self or
# missing checks, and skip those.
#
# The agents are installed with npm at pinned versions into target/agents/ (a cache; or
# $HERMES_HOOKS_CLIENTS_CACHE/agents/, a folder outside the checkout CI keeps between runs). Skips,
# with one line and exit 0, when node or npm is missing or the registry cannot be reached; an
# agent that cannot be installed skips itself the same way. Exit 1 when a check fails.
# HERMES_HOOKS_AGENTS="claude-code gemini" runs only those; AGENT_CHECKS=ask only the ask checks
# (AGENT_CHECKS=hostile only the hostile model, where an agent has one; AGENT_CHECKS=rules only
# the shipped rule packs, with no script hook: the destructive pack against `rm -rf` outside the
# project, and in Claude Code and Codex also against `bash -lc 'rm -rf <outside>'`; in Claude Code
# also the git-discard pack against `git reset --hard` over a tracked file's uncommitted change in
# the project's repository (the change stays, the audit log shows git-discard-reset-hard blocking,
# its message reaches the model; without the pack the change goes, and with it `git status` runs
# and reaches the model; see tests/agents/rules_pack.py); AGENT_CHECKS=self only the guard
# guarding itself, in Claude Code and Codex (the other agents skip): with the pack approved, a
# hostile model's `hermes-hooks approve --yes`, its detached `hermes-hooks revoke` (setsid, the
# agents' variables unset), its delete of the rules file, its unwiring of its own agent and its
# agent's own switch for hooks (`codex features disable hooks`, `claude --settings
# '{"disableAllHooks":true}'`, disableAllHooks in .claude/settings.local.json) are blocked, in a
# project with no .agents/ folder, and `rm -rf <outside>` still is; with nothing approved (the
# control) the deletes and switches do their damage, approve refuses by itself and the detached
# revoke runs; see tests/agents/self_protection.py; AGENT_CHECKS=missing only hermes-hooks gone
# missing, in Claude Code and Codex (the other agents skip): wired by `install <agent> --project .`
# while hermes-hooks is on PATH, the agent started where it cannot be found blocks the model's `rm`
# of a folder outside the project and tells the model so, and with `install --if-missing allow` (the
# control) the folder is deleted; see tests/agents/missing_program.py). The full run runs them all.
#
# `run.sh BINARY` (or HERMES_HOOKS_AGENTS_BINARY=BINARY) runs the checks with that hermes-hooks
# binary and builds nothing; without either,
# the checkout's debug build is built and used.
#
# Drift: `run.sh --newest` (or HERMES_HOOKS_AGENTS_NEWEST=1) runs each agent's checks twice, at
# the pinned version and at the newest release on the registry (npm's `latest`, installed into
# target/agents-newest/<agent>; each check.sh takes HERMES_HOOKS_AGENT_VERSION and
# HERMES_HOOKS_AGENT_CACHE), then prints every check whose ok/FAIL differs between the two:
# "changed on <agent> <version>: <check>: ok → FAIL", then the `note` lines only one of the two
# printed. It exits 0 once it ran, whatever the checks said: the pinned run alone is the gate.
# A check.sh says which version it ran with a "<agent>: version V" line on stderr, and when asked
# for `latest` that is the pinned one, prints "<agent>: version V is the pinned one" and exits 0.
set -euo pipefail

usage() {
  echo "usage: tests/agents/run.sh [--newest] [BINARY]" >&2
  exit 2
}

newest="${HERMES_HOOKS_AGENTS_NEWEST:-}"
[ "$newest" = 0 ] && newest=""
binary="${HERMES_HOOKS_AGENTS_BINARY:-}"
if [ -n "$binary" ]; then
  [ -x "$binary" ] && [ -f "$binary" ] ||
    { echo "agents: HERMES_HOOKS_AGENTS_BINARY is not an executable: $binary" >&2; exit 2; }
  binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
  from_env=1
fi
for arg in "$@"; do
  case "$arg" in
    --newest) newest=1 ;;
    -*) usage ;;
    *)
      [ -z "$binary" ] || [ -n "${from_env:-}" ] || usage
      [ -x "$arg" ] && [ -f "$arg" ] || { echo "agents: not an executable: $arg" >&2; exit 2; }
      binary="$(cd "$(dirname "$arg")" && pwd)/$(basename "$arg")"
      ;;
  esac
done
cd "$(dirname "$0")/../.."

skip() {
  echo "agents: skipped: $1" >&2
  exit 0
}

command -v node >/dev/null || skip "node is not installed"
command -v npm >/dev/null || skip "npm is not installed"
command -v python3 >/dev/null || skip "python3 is not installed (the fake model server needs it)"

if [ -z "$binary" ]; then
  cargo build --locked --quiet --bin hermes-hooks
  binary="$PWD/target/debug/hermes-hooks"
fi

# Where the agents are installed, kept between runs; another run on this machine may be
# installing into the same folders: one at a time.
cache="${HERMES_HOOKS_CLIENTS_CACHE:-$PWD/target}"
mkdir -p "$cache"
if command -v flock >/dev/null; then
  exec 9>"$cache/agents.lock"
  flock 9
fi

failed=()
skipped=()
records=$(mktemp -d)
log="$records/log"
trap 'rm -rf "$records"' EXIT
started=$SECONDS

# Runs one agent's check.sh (its own lines pass through: stdout through one tee, stderr through
# another, both waited for as parts of the pipeline), keeping its stdout in $records/<run>/<agent>
# and its stderr in $log. Fails when a check failed.
run_check() {
  local agent="$1" run="$2"
  mkdir -p "$records/$run"
  { { bash "tests/agents/$agent/check.sh" "$binary" | tee "$records/$run/$agent"; } 2>&1 >&3 3>&- |
    tee "$log" >&2; } 3>&1
}

# The version a check.sh said it ran (its "<agent>: version V" line), or "?".
version_run() {
  sed -n 's/^[a-z0-9-]*: version \([^ ]*\).*/\1/p' "$log" | head -n 1 | grep . || echo "?"
}

# Every check whose ok/FAIL differs between the pinned and the newest run of one agent, then the
# `note` lines (what the harness saw without judging it) that only one of the two printed.
print_drift() {
  local agent="$1" version="$2"
  awk -v agent="$agent" -v version="$version" '
    /^(ok   |FAIL )/ {
      state = ($1 == "ok") ? "ok" : "FAIL"
      name = substr($0, 6)
      if (FILENAME == ARGV[1]) { pinned[name] = state; order[++n] = name }
      else { newer[name] = state; if (!(name in pinned)) order[++n] = name }
    }
    /^note/ {
      if (FILENAME == ARGV[1]) { pinned_note[$0] = 1; notes[++m] = $0 }
      else { newer_note[$0] = 1; if (!($0 in pinned_note)) notes[++m] = $0 }
    }
    END {
      for (i = 1; i <= n; i++) {
        name = order[i]
        before = (name in pinned) ? pinned[name] : "absent"
        after = (name in newer) ? newer[name] : "absent"
        if (before != after) {
          printf "changed on %s %s: %s: %s → %s\n", agent, version, name, before, after
          changed++
        }
      }
      if (!changed) printf "agents: %s %s: no check changed\n", agent, version
      for (i = 1; i <= m; i++) {
        line = notes[i]
        if (!(line in newer_note)) printf "  pinned only: %s\n", line
        else if (!(line in pinned_note)) printf "  %s only: %s\n", version, line
      }
    }' "$records/pinned/$agent" "$records/newest/$agent" >&2
}

drift=()
for agent in ${HERMES_HOOKS_AGENTS:-claude-code codex gemini copilot droid qwen opencode kilo pi cline}; do
  check="tests/agents/$agent/check.sh"
  if [ ! -f "$check" ]; then
    echo "agents: $agent: no harness at $check" >&2
    failed+=("$agent")
    continue
  fi
  echo "agents: $agent" >&2
  # A `skipped:` line among the check's lines marks the agent skipped.
  if ! HERMES_HOOKS_AGENT_CACHE="$cache/agents/$agent" run_check "$agent" pinned; then
    failed+=("$agent")
  elif grep -q "skipped:" "$log"; then
    skipped+=("$agent")
    continue
  fi
  [ -n "$newest" ] || continue
  pinned_version=$(version_run)
  echo "agents: $agent at its newest release" >&2
  HERMES_HOOKS_AGENT_VERSION=latest HERMES_HOOKS_AGENT_CACHE="$cache/agents-newest/$agent" \
    run_check "$agent" newest || true
  newest_version=$(version_run)
  if grep -q "is the pinned one" "$log"; then
    drift+=("agents: $agent: the newest release is the pinned $pinned_version")
  elif grep -q "skipped:" "$log"; then
    drift+=("agents: $agent: the newest release was not run: $(grep -m 1 "skipped:" "$log")")
  elif [ "$newest_version" = "$pinned_version" ]; then
    drift+=("agents: $agent: not measured: its check.sh ran the same version again (see above)")
  else
    drift+=("$(print_drift "$agent" "$newest_version" 2>&1)")
  fi
done

if [ -n "$newest" ]; then
  echo "agents: drift of the newest releases from the pinned ones ($((SECONDS - started)) s):" >&2
  printf '%s\n' "${drift[@]}" >&2
  [ "${#failed[@]}" -eq 0 ] || echo "agents: failed at the pinned version: ${failed[*]}" >&2
  exit 0
fi

if [ "${#failed[@]}" -gt 0 ]; then
  echo "agents: failed: ${failed[*]}" >&2
  exit 1
fi
if [ "${#skipped[@]}" -gt 0 ]; then
  echo "agents: every check that ran passed; skipped: ${skipped[*]}" >&2
else
  echo "agents: every check passed" >&2
fi
