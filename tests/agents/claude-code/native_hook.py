#!/usr/bin/env python3
"""A hook in Claude Code's own contract, wired by hand: the control the harness measures
hermes-hooks against. Usage: native_hook.py MODE PAYLOAD_LOG

It appends the payload it got (one JSON line) to PAYLOAD_LOG, then answers as MODE says.
A Stop hook answers only when stop_hook_active is false, so the gate asks once.
"""

import json
import sys

MARK = "touch rewritten.marker"


def answer(mode, payload):
    event = payload.get("hook_event_name", "")
    if mode == "block-json":
        out = {"hookEventName": event, "permissionDecision": "deny",
               "permissionDecisionReason": "NATIVE-BLOCK keep is protected"}
        return 0, json.dumps({"hookSpecificOutput": out}), ""
    if mode == "block-exit2":
        return 2, "", "NATIVE-BLOCK keep is protected"
    if mode == "block-exit2-bad-json":
        # exit 2, but stdout holds JSON that Claude Code's schema rejects ("deny" is no `decision`)
        return 2, json.dumps({"decision": "deny", "reason": "NATIVE-BLOCK"}), "NATIVE-BLOCK keep is protected"
    if mode.startswith("rewrite-"):
        out = {"hookEventName": event, "updatedInput": dict(payload.get("tool_input") or {}, command=MARK)}
        decision = mode[len("rewrite-"):]
        if decision != "bare":
            out["permissionDecision"] = decision
        return 0, json.dumps({"hookSpecificOutput": out}), ""
    if mode == "stop-continue":
        return 0, json.dumps({"continue": False, "stopReason": "NATIVE-STOP no session here"}), ""
    if mode == "decision-block":
        return 0, json.dumps({"decision": "block", "reason": "NATIVE-BLOCK not this"}), ""
    if mode == "context-json":
        out = {"hookEventName": event, "additionalContext": "NATIVE-CONTEXT-%s" % event}
        return 0, json.dumps({"hookSpecificOutput": out}), ""
    if mode == "context-text":
        return 0, "NATIVE-TEXT-%s" % event, ""
    if mode in ("stop-json", "stop-exit2"):
        if payload.get("stop_hook_active"):
            return 0, "", ""
        if mode == "stop-exit2":
            return 2, "", "NATIVE-KEEP-WORKING check the tests"
        return 0, json.dumps({"decision": "block", "reason": "NATIVE-KEEP-WORKING check the tests"}), ""
    return 0, "", ""


def main():
    mode, log = sys.argv[1], sys.argv[2]
    raw = sys.stdin.read()
    with open(log, "a", encoding="utf-8") as f:
        f.write(raw.replace("\n", " ") + "\n")
    code, out, err = answer(mode, json.loads(raw))
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


if __name__ == "__main__":
    sys.exit(main())
