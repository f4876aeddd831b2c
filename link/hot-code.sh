#!/usr/bin/env bash
# Writes link/hot-code.txt: the functions of the release binary that `run` executes, which
# build.rs asks the linker to place side by side (see docs/performance.md). Needs valgrind and nm.
# Run it after changing what `run` calls, a dependency or the toolchain; `cargo bench` says how
# many of the listed functions the binary still has.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in valgrind nm; do
  command -v "$tool" >/dev/null || { echo "hot-code: $tool is not installed" >&2; exit 1; }
done

cargo build --release --locked --bin hermes-hooks
bin=target/release/hermes-hooks
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The example home and project, from the repository root as the README runs them, and a home
# whose one source is a rules file holding every shipped pack, approved, run with a project of its
# own (so that `${project}` stands for a folder); each call's first word names its home. The parse
# memos go to the scratch folder, and each call runs once before it is traced (under valgrind
# too: a memo is kept per binary, and valgrind's counts as another), so the trace is of a call
# whose memo exists, as nearly every call is.
rules_home="$scratch/rules-home"
mkdir -p "$rules_home" "$scratch/project/.git"
XDG_CACHE_HOME="$scratch/cache" "$bin" --hermes-home "$rules_home" new --rules all >/dev/null
XDG_CACHE_HOME="$scratch/cache" "$bin" --hermes-home "$rules_home" --user-hooks /nonexistent -q \
  approve --yes >/dev/null
# The commonest shape of all, traced first so that its functions sit side by side: one config
# hook for the called tool, a script that answers `{}`.
one_home="$scratch/one-home"
mkdir -p "$one_home"
printf '#!/bin/sh\ncat >/dev/null\nprintf "{}"\n' >"$one_home/hook.sh"
chmod +x "$one_home/hook.sh"
printf 'hooks:\n  pre_tool_call:\n    - matcher: terminal\n      command: %s\n' "$one_home/hook.sh" \
  >"$one_home/config.yaml"
XDG_CACHE_HOME="$scratch/cache" "$bin" --hermes-home "$one_home" --user-hooks /nonexistent -q \
  approve --yes >/dev/null
# A rules file in use is known by its stamp once it is past the window in which a second change
# could leave its stamp as it was (2 s at most).
sleep 3
calls=(
  "one run pre_tool_call examples/payloads/ls.json --project $scratch/project"
  "examples run pre_tool_call examples/payloads/rm-rf.json"
  "examples run pre_tool_call examples/payloads/ls.json"
  "examples run pre_llm_call examples/payloads/turn.json"
  "examples run post_tool_call examples/payloads/ls.json"
  "examples run pre_tool_call examples/payloads/force-push.json --project examples/project"
  "examples run subagent_stop examples/payloads/stop.json --project examples/project"
  "examples run PreToolUse examples/payloads/rm-rf.json --agent claude-code"
  "rules run pre_tool_call examples/payloads/ls.json --project $scratch/project"
  "rules run pre_tool_call examples/payloads/rm-rf.json --project $scratch/project"
)
n=0
for call in "${calls[@]}"; do
  read -r home command event payload rest <<<"$call"
  case "$home" in
  one) home=$one_home ;;
  rules) home=$rules_home ;;
  *) home=examples/hermes-home ;;
  esac
  # `--agent` is run's own option (after the command); the other options are global.
  run_options=()
  case "$rest" in
  --agent*) read -r -a run_options <<<"$rest" && rest="" ;;
  esac
  # shellcheck disable=SC2086 # the rest is options, split on purpose
  args=(--hermes-home "$home" --user-hooks /nonexistent $rest "$command"
    ${run_options[@]+"${run_options[@]}"} "$event")
  n=$((n + 1))
  XDG_CACHE_HOME="$scratch/cache" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$bin" "${args[@]}" <"$payload" >/dev/null 2>&1 || true
  XDG_CACHE_HOME="$scratch/cache" valgrind --tool=callgrind --demangle=no \
    --callgrind-out-file="$scratch/trace.$n" "$bin" "${args[@]}" <"$payload" >/dev/null 2>&1 || true
done

# Every function the traces name that the binary defines: those of the first call, then those
# the second adds, and so on (the commonest paths first), each group in the order of its names.
nm --defined-only "$bin" | awk '$2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$scratch/defined"
for i in $(seq 1 "$n"); do
  sed -n 's/^c\{0,1\}fn=([0-9]*) //p' "$scratch/trace.$i" | LC_ALL=C sort -u | sed "s/^/$i /"
done | awk '!seen[$2]++' | LC_ALL=C sort -k1,1n -k2 | cut -d' ' -f2- >"$scratch/named"
# First, what every call runs and the traces cannot show: the C runtime's entry and start-up
# code, and sha2's compression with the CPU's SHA extensions (valgrind's CPU has none, so its
# trace shows the portable one).
{
  printf '%s\n' _start frame_dummy
  grep 'x86_sha.*compress' "$scratch/defined" || true
  cat "$scratch/named"
} | awk '!seen[$0]++' >"$scratch/ordered"
awk 'NR == FNR { defined[$0] = 1; next } defined[$0]' "$scratch/defined" "$scratch/ordered" \
  >link/hot-code.txt
echo "hot-code: $(wc -l <link/hot-code.txt) functions in link/hot-code.txt" >&2
