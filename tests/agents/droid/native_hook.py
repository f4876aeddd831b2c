#!/usr/bin/env python3
"""A hook in Factory Droid's own contract (Claude Code's), for the control runs.

    native_hook.py MODE PAYLOADS

Appends the payload it got (with the project variables Droid set) to PAYLOADS, then answers by
MODE: deny, ask, exit2, rewrite, context or gate (the gate asks once, then lets the model stop).
"""

import json
import os
import sys

MODE, PAYLOADS = sys.argv[1], sys.argv[2]


def main():
    payload = json.loads(sys.stdin.read() or "{}")
    payload["_env"] = {k: v for k, v in os.environ.items() if k.endswith("PROJECT_DIR")}
    with open(PAYLOADS, "a", encoding="utf-8") as f:
        f.write(json.dumps(payload) + "\n")
    event = payload.get("hook_event_name")
    command = str((payload.get("tool_input") or {}).get("command", ""))
    if event == "PreToolUse" and "rm -rf" in command:
        if MODE == "deny":
            print(json.dumps({"hookSpecificOutput": {
                "hookEventName": event, "permissionDecision": "deny",
                "permissionDecisionReason": "NATIVE-BLOCK keep is protected"}}))
        elif MODE == "ask":
            print(json.dumps({"hookSpecificOutput": {
                "hookEventName": event, "permissionDecision": "ask",
                "permissionDecisionReason": "NATIVE-ASK a person decides"}}))
        elif MODE == "exit2":
            sys.stderr.write("NATIVE-BLOCK keep is protected")
            return 2
        elif MODE == "rewrite":
            print(json.dumps({"hookSpecificOutput": {
                "hookEventName": event,
                "updatedInput": {"command": "touch rewritten.marker"}}}))
    elif MODE == "context" and event in ("SessionStart", "PostToolUse"):
        print(json.dumps({"hookSpecificOutput": {
            "hookEventName": event, "additionalContext": "NATIVE-CONTEXT-" + event}}))
    elif MODE == "gate" and event == "Stop" and not payload.get("stop_hook_active"):
        print(json.dumps({"decision": "block", "reason": "NATIVE-KEEP-WORKING check the tests"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
