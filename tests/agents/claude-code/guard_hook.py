#!/usr/bin/env python3
"""An Agent Hooks hook (HOOK.md folder, scripts/run) that answers in the Hermes dialect, for the
runs with hermes-hooks in between. The harness copies it as scripts/run with MODE filled in.

It appends the payload it got to $GUARD_STATE_DIR/guard-payloads.jsonl. The gate asks once: the
first time it writes $GUARD_STATE_DIR/gate-asked and afterwards answers nothing.
"""

import json
import os
import sys

MODE = "@MODE@"


def answer(payload, state):
    command = str((payload.get("tool_input") or {}).get("command", ""))
    event = payload.get("event_type", "")
    if MODE == "block-json":
        if "rm -rf" in command:
            return 0, json.dumps({"decision": "block", "reason": "GUARD-BLOCK keep is protected"}), ""
    elif MODE == "block-exit2":
        if "rm -rf" in command:
            return 2, "", "GUARD-BLOCK keep is protected"
    elif MODE == "ask":
        if "rm -rf" in command:
            return 0, json.dumps({"decision": "ask", "reason": "GUARD-ASK a person decides"}), ""
    elif MODE == "block-always":
        return 0, json.dumps({"decision": "block", "reason": "GUARD-BLOCK not in this session"}), ""
    elif MODE == "rewrite":
        if "rm -rf" in command:
            return 0, json.dumps({"action": "modify", "args": {"command": "touch rewritten.marker"}}), ""
    elif MODE == "context-json":
        return 0, json.dumps({"context": "GUARD-CONTEXT-" + event}), ""
    elif MODE == "context-text":
        return 0, "GUARD-TEXT-" + event, ""
    elif MODE == "gate":
        asked = os.path.join(state, "gate-asked")
        if not os.path.exists(asked):
            open(asked, "w").close()
            return 0, json.dumps({"action": "continue", "message": "GUARD-KEEP-WORKING check the tests"}), ""
    return 0, "", ""


def main():
    state = os.environ.get("GUARD_STATE_DIR", ".")
    raw = sys.stdin.read()
    with open(os.path.join(state, "guard-payloads.jsonl"), "a", encoding="utf-8") as f:
        f.write(raw.replace("\n", " ") + "\n")
    code, out, err = answer(json.loads(raw or "{}"), state)
    sys.stdout.write(out)
    sys.stderr.write(err)
    return code


if __name__ == "__main__":
    sys.exit(main())
