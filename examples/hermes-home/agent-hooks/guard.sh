#!/bin/sh
# Blocks terminal commands that would wipe the filesystem root; lets everything else through.
# Reads the Hermes wire payload on stdin; answers in the Claude-Code dialect, which
# hermes-hooks normalises to {"action": "block", "message": ...}.
payload=$(cat)
case "$payload" in
  *'"command": "rm -rf /"'* | *'"command": "rm -rf /*"'* | *'"command": "sudo rm -rf /"'*)
    printf '{"decision": "block", "reason": "rm -rf / is not permitted"}\n'
    ;;
  *)
    printf '{}\n'
    ;;
esac
