#!/bin/sh
# Written by hermes-hooks @HERMES_HOOKS_VERSION@ (`hermes-hooks install cline`; `hermes-hooks
# uninstall cline` removes it): Cline's @HERMES_HOOKS_EVENT@ hooks, decided by hermes-hooks. Cline
# runs every file named for an event in its hooks folders, this one beside a person's own.
if command -v @HERMES_HOOKS_SH_BIN@ >/dev/null 2>&1; then
  exec @HERMES_HOOKS_SH_BIN@ run --agent cline @HERMES_HOOKS_EVENT@
fi
echo "hermes-hooks cannot be found: Cline's @HERMES_HOOKS_EVENT@ is not checked by it" >&2
printf '%s\n' '@HERMES_HOOKS_MISSING@'
