#!/usr/bin/env python3
"""Drive `hermes-hooks serve` the way an agent would: start it once, send one event per tool
call as a JSON line, read the answer line, act on it. Standard library only.

    python3 examples/serve_client.py [--bin PATH] [--events N] [-- GLOBAL_OPTIONS...]

Without --events it sends a few sample events and prints each answer. With --events N it sends
N `pre_tool_call` events and prints the median time per event (what the benchmark reports).
Options after `--` go to hermes-hooks (for example `--hermes-home DIR`).
"""

import argparse
import itertools
import json
import statistics
import subprocess
import sys
import time


class Hooks:
    """One `hermes-hooks serve` process; `fire` answers one event."""

    def __init__(self, binary="hermes-hooks", options=()):
        self.process = subprocess.Popen(
            [binary, *options, "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.ids = itertools.count(1)

    def fire(self, event, payload, dry_run=False):
        request = {"id": next(self.ids), "event": event, "payload": payload}
        if dry_run:
            request["dry_run"] = True
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("hermes-hooks serve ended")
        answer = json.loads(line)
        if answer.get("id") != request["id"]:
            raise RuntimeError(f"answer out of order: {answer}")
        return answer

    def close(self):
        self.process.stdin.close()
        return self.process.wait()


def act(answer):
    """What an agent does with an answer: the same keys `run` prints."""
    if "error" in answer:
        return f"hooks could not run ({answer['error']}); going on"
    if answer.get("action") == "block":
        return f"tool call blocked: {answer.get('message')}"
    if answer.get("action") == "modify":
        return f"tool input rewritten to {json.dumps(answer['args'])}"
    if "context" in answer:
        return f"context added: {answer['context']}"
    if answer.get("action") == "continue":
        return f"keep working: {answer.get('message')}"
    return "go on"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", default="hermes-hooks", help="the hermes-hooks binary")
    parser.add_argument("--events", type=int, help="time N pre_tool_call events")
    parser.add_argument("options", nargs="*", help="options for hermes-hooks (after --)")
    args = parser.parse_args()
    hooks = Hooks(args.bin, args.options)
    if args.events:
        call = {"tool_name": "web_search", "args": {"q": "rust"}, "session_id": "bench"}
        hooks.fire("pre_tool_call", call)
        times = []
        for _ in range(args.events):
            started = time.perf_counter()
            hooks.fire("pre_tool_call", call)
            times.append(time.perf_counter() - started)
        print(f"{statistics.median(times) * 1e6:.1f}")
    else:
        samples = [
            ("on_session_start", {"session_id": "demo"}),
            ("pre_tool_call", {"tool_name": "terminal", "args": {"command": "ls"},
                               "session_id": "demo"}),
            ("pre_tool_call", {"tool_name": "terminal", "args": {"command": "rm -rf /"},
                               "session_id": "demo"}),
            ("pre_llm_call", {"session_id": "demo", "user_message": "hello"}),
        ]
        for event, payload in samples:
            answer = hooks.fire(event, payload)
            print(f"{event}: {act(answer)}")
            print(f"  {json.dumps(answer)}")
    sys.exit(hooks.close())


if __name__ == "__main__":
    main()
