"""A drift report: a newer Hermes's own reading of a pre_tool_call config hook against this tool's.
Run by newest.sh with the Python of Hermes's virtual environment and the overlay first on the
path, so `agent.shell_hooks` is the newer file:

    newest.py BINARY

For each case it runs the same hook both ways: Hermes's `run_once` (which reads the hook's exit
status, stdout and stderr with `_evaluate_result`, fail_closed included) on a ShellHookSpec, and
`BINARY run pre_tool_call` with the hook in config.yaml. It also compares the name the model reads
for a hook (`hook_display_name`; here the name in a fail_closed block). Prints `ok` or `differs`
per case, with both readings when they differ, and a count; the exit status is 0 either way.
"""

import json
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from agent import shell_hooks

BINARY = os.path.abspath(sys.argv[1])
# Hermes's own warnings about a hook (it exited 1, its stdout was not JSON) are the cases here.
logging.getLogger().addHandler(logging.NullHandler())
CALL = {"tool_name": "terminal", "args": {"command": "ls"}, "session_id": "s"}
TRACEBACK = ('Traceback (most recent call last):\n  File "/h/guard.py", line 1, in <module>\n'
             "ModuleNotFoundError: No module named 'policy_rules'\n")
NAME = re.compile(r"hook (\S+#[0-9a-f]{8})")
seen = {"ok": 0, "differs": 0}


def show(ok, case, newest, ours):
    """One case; both readings when they differ, or when they agree in other words."""
    seen["ok" if ok else "differs"] += 1
    print(("ok      " if ok else "differs ") + case, flush=True)
    if not ok or newest != ours:
        print(f"          newest Hermes: {newest}\n          hermes-hooks:  {ours}", flush=True)


class Home:
    """A scratch HOME and Hermes home for this tool, and a hook whose answer is set per case."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="hermes-newest-"))
        self.hermes = self.root / "home" / ".hermes"
        self.hermes.mkdir(parents=True)
        self.out, self.err, self.code = (self.root / n for n in ("out", "err", "code"))
        self.hook = self.root / "guard.sh"
        self.hook.write_text(f"#!/bin/sh\ncat >/dev/null; cat {self.out}; cat {self.err} >&2; "
                             f"exit $(cat {self.code})\n")
        self.hook.chmod(0o755)

    def env(self):
        return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(self.root / "home"),
                "HERMES_HOME": str(self.hermes), "LANG": "C.UTF-8",
                "HERMES_MANAGED_DIR": str(self.root / "managed")}

    def config(self, command, fail_closed, approve=True):
        flag = ", fail_closed: true" if fail_closed else ""
        (self.hermes / "config.yaml").write_text(
            f"hooks:\n  pre_tool_call:\n    - {{command: {json.dumps(command)}{flag}}}\n")
        if approve:
            self.ours("approve", "--yes")

    def answer(self, stdout, stderr, code):
        self.out.write_text(stdout)
        self.err.write_text(stderr)
        self.code.write_text(str(code))

    def ours(self, *args, stdin=None):
        return subprocess.run([BINARY, *args], input=stdin, capture_output=True, text=True,
                              env=self.env(), cwd=self.root)

    def ours_reading(self):
        out = self.ours("run", "pre_tool_call", stdin=json.dumps(CALL))
        try:
            line = json.loads(out.stdout)
        except ValueError:
            return f"(no line: {out.stdout}{out.stderr})"
        return {k: line[k] for k in ("action", "message", "args", "rule_key") if k in line} or None

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def newest_reading(command, fail_closed, env):
    """`run_once`'s parsed answer, in this process with the home's environment."""
    kept = dict(os.environ)
    os.environ.update(env)
    try:
        spec = shell_hooks.ShellHookSpec(event="pre_tool_call", command=command,
                                         fail_closed=fail_closed)
        return shell_hooks.run_once(spec, dict(CALL))["parsed"]
    finally:
        os.environ.clear()
        os.environ.update(kept)


def no_rewrite(reading):
    """A rewrite to no arguments changes nothing: the call goes on as asked."""
    if isinstance(reading, dict) and reading.get("action") == "modify" and reading.get("args") == {}:
        return None
    return reading


def same(newest, ours):
    """The same decision: nothing, or the same action (with the same block text, or the same
    hook name where both name one, or the same arguments)."""
    newest, ours = no_rewrite(newest), no_rewrite(ours)
    if not isinstance(newest, dict) or not isinstance(ours, dict):
        return newest == ours
    if newest.get("action") != ours.get("action"):
        return False
    if ours.get("action") == "modify":
        return newest.get("args") == ours.get("args")
    names = [NAME.search(str(d.get("message"))) for d in (newest, ours)]
    if all(names):
        return names[0].group(1) == names[1].group(1)
    return newest.get("message") == ours.get("message")


# (what, stdout, stderr, exit code, fail_closed)
ANSWERS = [
    ("nothing", "", "", 0, False),
    ("a block", '{"action": "block", "message": "m"}', "", 0, False),
    ("a Claude-style block", '{"decision": "block", "reason": "r"}', "", 0, False),
    ("exit 2 with a reason on stderr", "", "denied here", 2, False),
    ("a rewrite", '{"action": "modify", "args": {"command": "ls -l"}}', "", 0, False),
    ("a Claude-style rewrite", '{"decision": "modify", "tool_input": {"command": "ls -l"}}', "", 0,
     False),
    ("Hermes's ask (approve)", '{"action": "approve", "message": "m", "rule_key": "k"}', "", 0,
     False),
    ("Agent Hooks' ask", '{"decision": "ask", "reason": "r"}', "", 0, False),
    ("fail_closed: exit 1", "", "", 1, True),
    ("fail_closed: a traceback (ModuleNotFoundError)", "", TRACEBACK, 1, True),
    ("fail_closed: empty stdout", "", "", 0, True),
    ("fail_closed: not JSON", "not json", "", 0, True),
    ("fail_closed: {}", "{}", "", 0, True),
    ('fail_closed: {"action": "allow"}', '{"action": "allow"}', "", 0, True),
    ("fail_closed: context", '{"context": "c"}', "", 0, True),
    ('fail_closed: {"action": "modify", "args": {}}', '{"action": "modify", "args": {}}', "", 0,
     True),
    ("fail_closed: a block", '{"action": "block", "message": "m"}', "", 0, True),
    ("fail_closed: exit 2", "", "denied here", 2, True),
    ("fail_closed: an ask", '{"decision": "ask", "reason": "r"}', "", 0, True),
]


def answers():
    for closed in (False, True):
        home = Home()
        try:
            home.config(str(home.hook), closed)
            for what, stdout, stderr, code, fail_closed in ANSWERS:
                if fail_closed != closed:
                    continue
                home.answer(stdout, stderr, code)
                newest = newest_reading(str(home.hook), closed, home.env())
                ours = home.ours_reading()
                show(same(newest, ours), what, newest, ours)
        finally:
            home.cleanup()


def bridge():
    """The newer Hermes running `BINARY run pre_tool_call` as a config hook, an Agent Hooks hook
    behind it: what it makes of the bridge's answer."""
    home = Home()
    try:
        folder = home.root / "home" / ".config" / "agents" / "hooks" / "guard"
        (folder / "scripts").mkdir(parents=True)
        (folder / "HOOK.md").write_text(
            "---\nname: guard\ndescription: a guard\ntrigger: pre-tool-call\n---\n")
        entry = folder / "scripts" / "run"
        entry.write_text(f"#!/bin/sh\ncat >/dev/null; cat {home.out}\n")
        entry.chmod(0o755)
        command = f"{BINARY} run pre_tool_call"
        home.config(command, False)
        for what, stdout, expected in [
            ("a block", '{"decision": "block", "reason": "r"}', {"action": "block", "message": "r"}),
            ("an ask", '{"decision": "ask", "reason": "r"}',
             {"action": "block", "message": "r; a person must approve this call, and Hermes "
                                            "cannot ask for that here, so it was blocked"}),
        ]:
            home.answer(stdout, "", 0)
            newest = newest_reading(command, False, home.env())
            show(newest == expected, f"through the bridge: {what}", newest, expected)
    finally:
        home.cleanup()


COMMANDS = [
    "/usr/bin/python3 /p/my-guard.py",
    "env TOK=x prog",
    "bash -c 'x'",
    "sh ~/h/check.sh",
    "/opt/hooks/guard.sh --strict",
    "uvx ruff-guard",
    "TOKEN=s3cret ./guard",
    "curl https://user:s3cret@example.com/check",
]


def names():
    """The name the model reads: here, from the block an unapproved fail_closed hook gives."""
    home = Home()
    try:
        for command in COMMANDS:
            home.config(command, True, approve=False)
            ours = home.ours_reading()
            found = NAME.search(str((ours or {}).get("message") if isinstance(ours, dict) else ours))
            ours_name = found.group(1) if found else f"(no name in {ours})"
            newest = shell_hooks.hook_display_name(command)
            show(newest == ours_name, f"name of `{command}`: {newest}", newest, ours_name)
    finally:
        home.cleanup()


def main():
    print(f"newest Hermes: {shell_hooks.__file__}", flush=True)
    answers()
    bridge()
    names()
    print(f"\nnewest Hermes: {seen['ok']} of {seen['ok'] + seen['differs']} cases read the same; "
          f"{seen['differs']} differ (a drift report, not a gate)", flush=True)


if __name__ == "__main__":
    main()
