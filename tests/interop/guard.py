#!/usr/bin/env python3
"""An Agent Hooks hook (HOOK.md folder, scripts/run) for the agent-loop runs. agent_loop.py copies
it as scripts/run with MODE and STATE filled in.

It appends one line per call to STATE/guard-calls.jsonl: when it started and ended, and the payload
it got. The gate asks once: the first time it writes STATE/gate-asked and afterwards answers
nothing. `ask` asks a person about a call that mentions ASK_MARK. `slow` sleeps SLOW_SECONDS when the payload mentions `slow`, and answers nothing.
"""

import json
import os
import sys
import time

MODE = "@MODE@"
STATE = "@STATE@"
SLOW_SECONDS = 4
# `ask` asks a person about a call that would create this file.
ASK_MARK = "asked.marker"


def answer(raw, event):
    if MODE == "block" and "rm -rf" in raw:
        return json.dumps({"decision": "block", "reason": "GUARD-BLOCK keep is protected"})
    if MODE == "ask" and ASK_MARK in raw:
        return json.dumps({"decision": "ask", "reason": "GUARD-ASK a person looks at this first"})
    if MODE == "rewrite" and "rm -rf" in raw:
        return json.dumps({"action": "modify", "args": {"command": "touch rewritten.marker"}})
    if MODE == "context":
        return json.dumps({"context": "GUARD-CONTEXT-" + event})
    if MODE == "gate":
        asked = os.path.join(STATE, "gate-asked")
        if not os.path.exists(asked):
            open(asked, "w").close()
            return json.dumps({"action": "continue", "message": "GUARD-KEEP-WORKING run the tests"})
    if MODE == "slow" and "slow" in raw:
        time.sleep(SLOW_SECONDS)
    return ""


def main():
    start = time.time()
    raw = sys.stdin.read()
    try:
        payload = json.loads(raw or "{}")
    except ValueError:
        payload = {"unparsed": raw}
    event = str(payload.get("event_type") or payload.get("hook_event_name") or "")
    out = answer(raw, event)
    line = {"start": start, "end": time.time(), "payload": payload}
    with open(os.path.join(STATE, "guard-calls.jsonl"), "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
    sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
