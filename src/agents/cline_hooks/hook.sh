#!/bin/sh
# Written by hermes-hooks @HERMES_HOOKS_VERSION@ (`hermes-hooks install cline`; `hermes-hooks
# uninstall cline` removes it): Cline's @HERMES_HOOKS_EVENT@ hooks, decided by hermes-hooks. Cline
# runs every file named for an event in its hooks folders, this one beside a person's own.
bin=@HERMES_HOOKS_SH_BIN@
event=@HERMES_HOOKS_EVENT@

# Cline's answer that stops the call (and ends the task), saying why.
stop() {
  printf '{"cancel":true,"errorMessage":"hermes-hooks %s, so this call was stopped"}\n' "$1"
  exit 0
}

switch_on() {
  case "$HERMES_HOOKS_FAIL_CLOSED" in
    1 | [Tt][Rr][Uu][Ee] | [Yy][Ee][Ss] | [Oo][Nn]) return 0 ;;
  esac
  return 1
}

if ! command -v "$bin" >/dev/null 2>&1; then
  # The payload is read whole first: Cline, writing it to a closed pipe, would skip the answer.
  cat >/dev/null
  echo "hermes-hooks cannot be found: Cline's $event is not checked by it" >&2
  [ "$event" = PreToolUse ] && switch_on && stop "cannot be found and HERMES_HOOKS_FAIL_CLOSED is on"
  printf '%s\n' '@HERMES_HOOKS_MISSING@'
  exit 0
fi
"$bin" run --agent cline "$event"
status=$?
# 0, 1 and 2 come with an answer on stdout. Anything else is the runner ended before it could
# answer (a signal, a crash), and Cline would let a call it cannot read an answer for go: before
# a call, it is stopped when HERMES_HOOKS_FAIL_CLOSED is on or a fail_closed hook could apply.
[ "$status" -le 2 ] && exit 0
echo "hermes-hooks ended with status $status before it answered Cline's $event" >&2
[ "$event" = PreToolUse ] || exit 0
switch_on && stop "ended before it answered and HERMES_HOOKS_FAIL_CLOSED is on"
# A key in `list --json`: inside a JSON string its quotes would be escaped.
case "$("$bin" list --json --event pre_tool_call 2>/dev/null)" in
  *'"fail_closed":true'*) stop "ended before it answered and a fail_closed hook could apply to it" ;;
esac
