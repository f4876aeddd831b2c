#!/usr/bin/env python3
"""A hook written in Codex CLI's own contract, for the control runs.

Usage: native_hook.py MODE LOG [TEXT]. The payload read on stdin is appended to LOG
as one JSON line; the answer depends on MODE.
"""

import json
import sys
import time


def answer(mode, payload, text):
    event = payload.get("hook_event_name", "")
    if mode == "deny":
        return {
            "hookSpecificOutput": {
                "hookEventName": event,
                "permissionDecision": "deny",
                "permissionDecisionReason": text,
            }
        }
    if mode == "ask":
        return {
            "hookSpecificOutput": {
                "hookEventName": event,
                "permissionDecision": "ask",
                "permissionDecisionReason": text,
            }
        }
    if mode == "rewrite":
        updated = dict(payload.get("tool_input") or {})
        updated["command"] = text
        return {
            "hookSpecificOutput": {
                "hookEventName": event,
                "permissionDecision": "allow",
                "updatedInput": updated,
            }
        }
    if mode == "allow-only":
        return {"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "allow"}}
    if mode == "context":
        return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    if mode == "stop":
        if payload.get("stop_hook_active"):
            return None
        return {"decision": "block", "reason": text}
    if mode == "deny-extra-key":
        reply = answer("deny", payload, text)
        reply["event"] = event
        return reply
    return None


def main():
    mode, log = sys.argv[1], sys.argv[2]
    text = sys.argv[3] if len(sys.argv) > 3 else ""
    raw = sys.stdin.read()
    try:
        payload = json.loads(raw)
    except ValueError:
        payload = {"unreadable": raw}
    with open(log, "a", encoding="utf-8") as f:
        f.write(json.dumps(payload) + "\n")
    if mode == "exit2":
        sys.stderr.write(text + "\n")
        return 2
    if mode in ("plain", "raw"):
        sys.stdout.write(text + ("\n" if mode == "plain" else ""))
        return 0
    if mode == "exit1":
        sys.stderr.write(text + "\n")
        return 1
    if mode == "sleep":
        time.sleep(float(text))
        return 0
    reply = answer(mode, payload, text)
    if reply is not None:
        sys.stdout.write(json.dumps(reply))
    return 0


if __name__ == "__main__":
    sys.exit(main())
