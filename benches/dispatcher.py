"""A small Python hook dispatcher doing what `hermes-hooks run` does on its hot path, as a
baseline: read the YAML config, read the JSON allowlist, spawn the matching hook with the payload
on stdin, parse its JSON answer, print one JSON line. Usage: dispatcher.py HOME EVENT < payload"""

import json
import os
import re
import shlex
import subprocess
import sys

import yaml


def main():
    home, event = sys.argv[1], sys.argv[2]
    payload = json.loads(sys.stdin.read() or "{}")
    with open(os.path.join(home, "config.yaml"), encoding="utf-8") as f:
        config = yaml.safe_load(f) or {}
    with open(os.path.join(home, "shell-hooks-allowlist.json"), encoding="utf-8-sig") as f:
        approved = {(e["event"], e["command"]) for e in json.load(f).get("approvals", [])}
    hooks = []
    for entry in (config.get("hooks") or {}).get(event) or []:
        matcher = entry.get("matcher")
        if matcher and not re.fullmatch(matcher, payload.get("tool_name") or ""):
            continue
        if (event, entry["command"]) not in approved:
            continue
        wire = json.dumps({"hook_event_name": event, "tool_name": payload.get("tool_name"),
                           "tool_input": payload.get("args"), "session_id": payload.get("session_id", ""),
                           "cwd": os.getcwd(), "extra": {}})
        done = subprocess.run(shlex.split(os.path.expanduser(entry["command"])), input=wire,
                              capture_output=True, text=True, timeout=entry.get("timeout", 60))
        answer = json.loads(done.stdout) if done.stdout.strip() else {}
        hooks.append({"command": entry["command"], "exit_code": done.returncode, "answer": answer})
    print(json.dumps({"event": event, "hooks": hooks}))


main()
