"""Compares hermes-hooks with a real Hermes Agent (the version run.sh installs), on the same
HERMES_HOME: payload bytes, answers, what a pre_tool_call config hook's whole run (exit status,
stdout, stderr, fail_closed) means, registered hooks, allowlists written by one and read by the
other, and revokes seen across. Where this tool now follows a newer Hermes than 0.19 on purpose,
the check expects the difference and names it. Run by run.sh with the virtual environment's Python:

    harness.py BINARY

Prints one line per check and exits 1 when any differs.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

BINARY = os.path.abspath(sys.argv[1])
PYTHON = sys.executable
HERMES = str(Path(PYTHON).with_name("hermes"))
failures = []
checks = 0


def note(detail):
    """What a check saw, shown without judging it."""
    for line in str(detail).splitlines():
        print("       " + line)


def report(name, ok, detail=""):
    global checks
    checks += 1
    print(("ok   " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        for line in str(detail).splitlines():
            print("       " + line)


class Home:
    """A scratch HOME with a Hermes home, a work folder and no managed scope (unless written)."""

    def __init__(self):
        self.root = Path(tempfile.mkdtemp(prefix="hermes-interop-"))
        self.home = self.root / "home"
        self.hermes = self.home / ".hermes"
        self.work = self.root / "work"
        self.managed = self.root / "managed"
        for d in (self.hermes, self.work):
            d.mkdir(parents=True)

    def env(self, **extra):
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "HERMES_HOME": str(self.hermes),
            "HERMES_MANAGED_DIR": str(self.managed),
            "LANG": "C.UTF-8",
        }
        env.update(extra)
        return env

    def script(self, name, body):
        path = self.root / "scripts" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text("#!/bin/sh\n" + body + "\n")
        path.chmod(0o755)
        return path

    def config(self, text):
        (self.hermes / "config.yaml").write_text(text)

    def ours(self, *args, stdin=None, **env):
        return subprocess.run(
            [BINARY, *args],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=self.work,
            env=self.env(**env),
        )

    def hermes_cli(self, *args):
        return subprocess.run(
            [HERMES, *args], capture_output=True, text=True, cwd=self.work, env=self.env()
        )

    def hermes_py(self, code, **env):
        """Runs `code` in a fresh interpreter with Hermes importable and this home in effect."""
        out = subprocess.run(
            [PYTHON, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            cwd=self.work,
            env=self.env(**env),
        )
        if out.returncode != 0:
            raise RuntimeError(out.stderr)
        return out.stdout

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


# --- Payloads ------------------------------------------------------------------------------

PAYLOADS = [
    ("pre_tool_call", {"tool_name": "terminal", "args": {"command": "rm -rf /"}, "session_id": "s",
                       "task_id": "t", "tool_call_id": "c", "turn_id": "turn_1",
                       "api_request_id": "req_1", "middleware_trace": [{"name": "m", "ms": 0.25}],
                       "telemetry_schema_version": "hermes.observer.v1"}),
    ("pre_tool_call", {"tool_name": "write_file", "args": {"path": "naïve/ü.txt", "content": "é\n\t\"q\"",
                       "n": 100000000000000000000, "f": 1e16, "g": 0.1, "h": 1e-05, "b": True, "z": None},
                       "session_id": "", "parent_session_id": "parent"}),
    ("pre_tool_call", {"tool_name": "terminal", "args": "not a dict", "session_id": "s"}),
    ("post_tool_call", {"tool_name": "terminal", "args": {"command": "ls"}, "result": "{\"output\": \"x\"}",
                        "status": "error", "error_type": "ValueError", "error_message": "bad",
                        "duration_ms": 42, "task_id": "", "tool_call_id": "c"}),
    ("pre_llm_call", {"session_id": "s", "user_message": "Hi — ✓", "conversation_history": [
        {"role": "user", "content": "a"}], "is_first_turn": True, "model": "m", "platform": "cli"}),
    ("subagent_stop", {"parent_session_id": "p", "child_role": None, "child_summary": "done",
                       "child_status": "completed", "duration_ms": 1234}),
    ("on_session_start", {}),
    ("on_session_end", {"session_id": "s", "completed": False, "interrupted": True, "model": "m"}),
]


def compare_payloads():
    home = Home()
    try:
        seen = home.root / "seen.json"
        hook = home.script("see.sh", f"cat > {seen}")
        events = sorted({event for event, _ in PAYLOADS})
        home.config("hooks:\n" + "".join(f"  {e}:\n    - command: {hook}\n" for e in events))
        home.ours("approve", "--yes")
        for event, kwargs in PAYLOADS:
            theirs = home.hermes_py(
                f"""
                import json, sys
                from agent import shell_hooks
                sys.stdout.write(shell_hooks._serialize_payload({event!r}, json.loads({json.dumps(json.dumps(kwargs))})))
                """
            )
            out = home.ours("run", event, stdin=json.dumps(kwargs))
            ours = seen.read_text() if seen.exists() else f"(no payload; run said {out.stdout}{out.stderr})"
            if seen.exists():
                seen.unlink()
            # `profile` is this tool's addition (newer Hermes sends it; 0.19 does not).
            ours = ours.replace(', "profile": "default"', "", 1)
            report(f"payload bytes: {event} {list(kwargs)[:3]}", ours == theirs,
                   f"hermes: {theirs}\nours:   {ours}")
    finally:
        home.cleanup()


# --- Answers -------------------------------------------------------------------------------

ANSWERS = [
    "", "{}", "not json", "[1, 2]", "  {\"context\": \"c\"}  \n",
    '{"action": "block", "message": "m"}', '{"decision": "block", "reason": "r"}',
    '{"action": "block"}', '{"action": "block", "message": ""}', '{"action": "block", "message": "  "}',
    '{"action": "block", "message": 5, "reason": "r"}', '{"decision": "block", "message": "m"}',
    '{"action": "Block", "message": "m"}', '{"action": "block", "message": "m", "x": NaN}',
    '{"context": "c"}', '{"context": "  "}', '{"context": 5}', '{"context": "  padded  "}',
    '{"action": "continue", "message": "go"}', '{"action": " Continue ", "message": " go \\n"}',
    '{"decision": "BLOCK", "reason": "r"}', '{"action": "allow", "decision": "block", "reason": "r"}',
    '{"action": "", "decision": "continue", "message": "m"}', '{"action": "continue"}',
    '{"action": "continue", "message": "  ", "reason": "r"}', '{"action": null, "decision": "block", "reason": "r"}',
    '{"action": true, "message": "m"}',
]
ANSWER_EVENTS = ["pre_tool_call", "pre_llm_call", "pre_verify"]


def normalise(directive):
    """The directive with the default block message of either tool made the same."""
    if not directive:
        return None
    directive = dict(directive)
    message = directive.get("message")
    if directive.get("action") == "block" and (
        message == "Blocked by shell hook." or str(message).startswith("Blocked by hook ")
    ):
        directive["message"] = "<default>"
    return directive


def compare_answers():
    home = Home()
    try:
        answer = home.root / "answer.txt"
        hook = home.script("answer.sh", f"cat >/dev/null; cat {answer}")
        home.config("hooks:\n" + "".join(f"  {e}:\n    - command: {hook}\n" for e in ANSWER_EVENTS))
        home.ours("approve", "--yes")
        cases = [(e, a) for e in ANSWER_EVENTS for a in ANSWERS]
        theirs = json.loads(home.hermes_py(
            f"""
            import json
            from agent import shell_hooks
            cases = json.loads({json.dumps(json.dumps(cases))})
            print(json.dumps([shell_hooks._parse_response(e, a) for e, a in cases]))
            """
        ))
        for (event, text), hermes in zip(cases, theirs):
            answer.write_text(text)
            out = home.ours("run", event, stdin='{"tool_name": "terminal"}')
            try:
                line = json.loads(out.stdout)
            except ValueError:
                report(f"answer {event} {text!r}", False, out.stdout + out.stderr)
                continue
            ours = {k: line[k] for k in ("action", "message", "args", "context") if k in line} or None
            report(f"answer {event} {text.strip()[:50]!r}", normalise(ours) == normalise(hermes),
                   f"hermes: {hermes}\nours:   {ours}")
    finally:
        home.cleanup()


# --- What a pre_tool_call config hook's whole run means ----------------------------------------

TRACEBACK = ('Traceback (most recent call last):\n  File "/h/guard.py", line 1, in <module>\n'
             "ModuleNotFoundError: No module named 'policy_rules'\n")
# Why this tool reads a hook's run otherwise than Hermes 0.19 does; each is the newer Hermes's
# reading (agent/shell_hooks.py, _evaluate_result and _parse_response), which 0.19 predates.
EXIT_TWO = "exit 2 on pre_tool_call is a block (newer Hermes; 0.19 ignores the exit status)"
MUST_ANSWER = ("a fail_closed guard must answer allow, block or modify (newer Hermes; 0.19 has "
               "no fail_closed)")
CRASHED = "a fail_closed guard that crashed blocks (newer Hermes; 0.19 has no fail_closed)"
REWRITES = "a config hook may rewrite the call (newer Hermes; 0.19 drops modify)"
ASKS = "a config hook may ask a person (0.19 reads no ask from a shell hook and runs the call)"

# (stdout, stderr, exit code, fail_closed, why the two tools now differ or None when they agree)
RUNS = [
    ("", "", 0, False, None),
    ("", "denied here", 2, False, EXIT_TWO),
    ('{"action": "block", "message": "m"}', "", 2, False, None),
    ('{"action": "modify", "args": {"command": "ls"}}', "", 0, False, REWRITES),
    ('{"decision": "ask", "reason": "r"}', "", 0, False, ASKS),
    ('{"action": "approve", "message": "m", "rule_key": "k"}', "", 0, False, ASKS),
    ("", "", 1, True, CRASHED),
    ("", TRACEBACK, 1, True, CRASHED),
    ("", "", 0, True, MUST_ANSWER),
    ("not json", "", 0, True, MUST_ANSWER),
    ('{"context": "c"}', "", 0, True, MUST_ANSWER),
    ("{}", "", 0, True, None),
    ('{"action": "allow"}', "", 0, True, None),
    ('{"action": "modify", "args": {}}', "", 0, True, None),
    ('{"decision": "block", "reason": "r"}', "", 0, True, None),
    ("", "denied here", 2, True, EXIT_TWO),
]


def ours_reading(line):
    """This tool's answer for Hermes: the line's directive, as Hermes would act on it."""
    if line.get("action") == "approve":
        return {"action": "approve", "message": line.get("message")}
    return {k: line[k] for k in ("action", "message", "args") if k in line} or None


def compare_runs():
    """A pre_tool_call config hook's exit, stdout and stderr, read by Hermes 0.19 (the callback it
    registers) and by `run`: the same, or different for the reason the case names."""
    for closed in (False, True):
        home = Home()
        try:
            out, err, code = (home.root / n for n in ("out.txt", "err.txt", "code.txt"))
            hook = home.script("guard.sh", f"cat >/dev/null; cat {out}; cat {err} >&2; "
                                           f"exit $(cat {code})")
            flag = ", fail_closed: true" if closed else ""
            home.config(f"hooks:\n  pre_tool_call:\n    - {{command: {hook}{flag}}}\n")
            home.ours("approve", "--yes")
            cases = [c for c in RUNS if c[3] == closed]
            theirs = json.loads(home.hermes_py(
                f"""
                import json
                from pathlib import Path
                from hermes_cli.config import load_config
                from agent import shell_hooks
                spec = shell_hooks.iter_configured_hooks(load_config())[0]
                callback = shell_hooks._make_callback(spec)
                seen = []
                for text, err, code, _, _ in json.loads({json.dumps(json.dumps(cases))}):
                    Path({str(out)!r}).write_text(text)
                    Path({str(err)!r}).write_text(err)
                    Path({str(code)!r}).write_text(str(code))
                    seen.append(callback(tool_name="terminal", args={{"command": "ls"}},
                                         session_id="s"))
                print(json.dumps(seen))
                """
            ))
            for (text, stderr, exit_code, _, why), hermes in zip(cases, theirs):
                out.write_text(text)
                err.write_text(stderr)
                code.write_text(str(exit_code))
                ran = home.ours("run", "pre_tool_call", stdin=CALL)
                try:
                    ours = ours_reading(json.loads(ran.stdout))
                except ValueError:
                    ours = f"(no line: {ran.stdout}{ran.stderr})"
                name = (f"hook run{' (fail_closed)' if closed else ''}: exit {exit_code}, "
                        f"stdout {text[:40]!r}{', a traceback' if 'Traceback' in stderr else ''}")
                detail = f"hermes 0.19: {hermes}\nours:        {ours}"
                if why is None:
                    report(name + ": the same", normalise(ours) == normalise(hermes), detail)
                else:
                    # Hermes 0.19 lets the call run where this tool now holds or changes it.
                    report(f"{name}: differs as meant ({why})",
                           hermes is None and ours is not None, detail)
                    note(detail)
        finally:
            home.cleanup()


CALL = '{"tool_name": "terminal", "args": {"command": "ls"}, "session_id": "s"}'


# --- Registration --------------------------------------------------------------------------

CONFIGS = [
    ("timeouts and matchers", """
model: x
hooks:
  pre_tool_call:
    - {command: /opt/a.sh, matcher: ' terminal ', timeout: 10}
    - {command: /opt/b.sh, matcher: 'terminal|write_file', timeout: '30'}
    - {command: /opt/c.sh, timeout: 2.5}
    - {command: /opt/d.sh, timeout: 9999}
    - {command: /opt/e.sh, timeout: 0}
    - {command: /opt/f.sh, timeout: thirty}
    - {command: /opt/g.sh, timeout: 010}
    - {command: /opt/h.sh, timeout: 1e3}
    - {command: /opt/i.sh, timeout: 1:30}
    - {command: /opt/j.sh, matcher: ''}
    - {command: /opt/k.sh, matcher: 5}
    - {command: /opt/l.sh, matcher: 'foo[bar'}
  pre_llm_call:
    - {command: /opt/m.sh, matcher: terminal}
""", None, None),
    ("repeated keys, last wins", """
model: a
hooks:
  pre_tool_call:
    - command: /opt/first.sh
  on_session_start:
    - command: /opt/s.sh
  pre_tool_call:
    - command: /opt/second.sh
      command: /opt/third.sh
model: b
""", None, None),
    ("identical entries once", """
hooks:
  pre_tool_call:
    - {command: /opt/g.sh, matcher: terminal, timeout: 5}
    - {command: ' /opt/g.sh ', matcher: ' terminal', timeout: 9}
    - {command: /opt/g.sh}
    - {command: /opt/g.sh, matcher: write_file}
  on_session_start:
    - {command: /opt/s.sh, matcher: x}
    - {command: /opt/s.sh}
""", None, None),
    ("skipped entries", """
hooks:
  pre_tool_call:
    - just a string
    - matcher: x
    - command: '  '
    - command: 42
    - [1, 2]
    - command: /opt/ok.sh
  post_tool_call: /opt/not-a-list.sh
  on_session_end:
  pre_tools_call:
    - command: /opt/typo.sh
  output_spill: {max: 1}
  yes:
    - command: /opt/bool-key.sh
""", None, None),
    ("merge keys", """
defaults: &d {timeout: 7, matcher: terminal}
hooks:
  pre_tool_call:
    - <<: *d
      command: /opt/merged.sh
    - <<: *d
      command: /opt/over.sh
      timeout: 9
""", None, None),
    ("variables from the environment and .env", """
hooks:
  pre_tool_call:
    - command: ${INTEROP_GUARDS}/g.sh --mode ${INTEROP_MODE}
      matcher: ${INTEROP_TOOL}
    - command: /opt/${INTEROP_UNSET_ANYWHERE}.sh
""", None, "INTEROP_GUARDS=/opt/guards\nINTEROP_TOOL=terminal\n"),
    ("the managed config wins per event", """
hooks_auto_accept: true
hooks:
  pre_tool_call:
    - command: /opt/mine.sh
  on_session_start:
    - command: /opt/start.sh
""", """
hooks:
  pre_tool_call:
    - command: /opt/audit.sh
      timeout: 3
  subagent_stop:
    - command: /opt/sub.sh
""", None),
]


def compare_registration():
    for name, config, managed, dotenv in CONFIGS:
        home = Home()
        try:
            home.config(textwrap.dedent(config).lstrip())
            if managed:
                home.managed.mkdir()
                (home.managed / "config.yaml").write_text(textwrap.dedent(managed).lstrip())
            if dotenv:
                (home.hermes / ".env").write_text(dotenv)
            extra = {"INTEROP_MODE": "strict"}
            theirs = json.loads(home.hermes_py(
                """
                import json
                from hermes_cli.env_loader import load_hermes_dotenv
                load_hermes_dotenv()
                from hermes_cli.config import load_config
                from agent import shell_hooks
                seen, out = set(), []
                for s in shell_hooks.iter_configured_hooks(load_config()):
                    key = (s.event, s.matcher, s.command)
                    if key not in seen:  # as register_from_config registers them
                        seen.add(key)
                        out.append([s.event, s.command, s.matcher, s.timeout])
                print(json.dumps(out))
                """,
                **extra,
            ))
            out = home.ours("list", "--json", **extra)
            try:
                rows = json.loads(out.stdout)["hooks"]
            except ValueError:
                report(f"registration: {name}", False, out.stdout + out.stderr)
                continue
            ours = [[r["event"], r["command"], r["matcher"], r["timeout_ms"] // 1000]
                    for r in rows if r["source"] == "config"]
            by_event = lambda hooks: {e: [h for h in hooks if h[0] == e] for e in {h[0] for h in hooks}}
            report(f"registration: {name}", by_event(ours) == by_event(theirs),
                   f"hermes: {theirs}\nours:   {ours}")
        finally:
            home.cleanup()


# --- Allowlists ----------------------------------------------------------------------------

def touch(path, stamp):
    subprocess.run(["touch", "-d", stamp, str(path)], check=True)


def compare_allowlists():
    home = Home()
    try:
        a = home.script("a.sh", "cat >/dev/null; printf '{}'")
        b = home.script("b.sh", "cat >/dev/null; printf '{}'")
        guard = home.home / "hooks" / "guard-é.sh"
        guard.parent.mkdir()
        guard.write_text("#!/bin/sh\ncat >/dev/null\n")
        guard.chmod(0o755)
        # Fractions that rounding and truncating to microseconds write differently.
        touch(a, "2026-04-17 09:29:58.9999995 UTC")
        touch(b, "2026-04-17 09:29:58.1234567 UTC")
        touch(guard, "2026-04-17 09:29:58.0000005 UTC")
        home.config(f"hooks:\n  pre_tool_call:\n    - command: {a}\n    - command: python3 {b} --x\n"
                    f"  on_session_start:\n    - command: ~/hooks/guard-é.sh\n")

        # This tool approves; Hermes reads.
        out = home.ours("approve", "--yes")
        report("this tool approves every hook", out.returncode == 0, out.stderr)
        listing = home.hermes_cli("hooks", "list").stdout
        report("hermes hooks list: this tool's approvals are allowed",
               listing.count("✓ allowed") == 3 and "not allowlisted" not in listing, listing)
        report("hermes hooks list: and not modified since approval", "modified" not in listing, listing)
        doctor = home.hermes_cli("hooks", "doctor").stdout
        report("hermes hooks doctor: unchanged since approval",
               doctor.count("script unchanged since approval") == 3 and "modified" not in doctor, doctor)
        raw = (home.hermes / "shell-hooks-allowlist.json").read_bytes()
        data = json.loads(raw)
        report("the allowlist's bytes are json.dumps(indent=2, sort_keys=True)'s",
               raw.decode() == json.dumps(data, indent=2, sort_keys=True), raw.decode())
        mtimes = home.hermes_py(
            f"""
            from agent import shell_hooks
            for c in [{str(a)!r}, {f'python3 {b} --x'!r}, '~/hooks/guard-é.sh']:
                print(shell_hooks.script_mtime_iso(c))
            """
        ).split()
        recorded = [e["script_mtime_at_approval"] for e in data["approvals"]]
        report("script_mtime_at_approval is the string Hermes computes",
               sorted(mtimes) == sorted(recorded), f"hermes: {mtimes}\nours:   {recorded}")

        # Hermes revokes; this tool sees it.
        home.hermes_cli("hooks", "revoke", str(a))
        rows = json.loads(home.ours("list", "--json").stdout)["hooks"]
        consent = {r["command"]: r["consent"] for r in rows}
        report("hermes hooks revoke is seen here", consent.get(str(a)) == "unapproved"
               and consent.get(f"python3 {b} --x") == "approved", consent)

        # This tool revokes; Hermes sees it.
        out = home.ours("revoke", f"python3 {b} --x")
        listing = home.hermes_cli("hooks", "list").stdout
        report("revoke here is seen by hermes hooks list",
               out.returncode == 0 and listing.count("✗ not allowlisted") == 2, listing)

        # Hermes approves (as --accept-hooks does); this tool honours it and pins it on first run.
        home.hermes_py(
            f"""
            from agent import shell_hooks
            shell_hooks._record_approval("pre_tool_call", {str(a)!r})
            """
        )
        rows = json.loads(home.ours("list", "--json").stdout)["hooks"]
        consent = {r["command"]: r["consent"] for r in rows}
        report("a Hermes approval is honoured here (unpinned until it runs)",
               consent.get(str(a)) == "unpinned", consent)
        out = home.ours("run", "pre_tool_call", stdin='{"tool_name": "terminal"}')
        statuses = [h["status"] for h in json.loads(out.stdout)["hooks"]]
        rows = json.loads(home.ours("list", "--json").stdout)["hooks"]
        consent = {r["command"]: r["consent"] for r in rows}
        report("run runs it and pins it", statuses[0] == "ok" and consent.get(str(a)) == "approved",
               f"{statuses} {consent}")
        listing = home.hermes_cli("hooks", "list").stdout
        report("hermes still reads the allowlist after the pin",
               listing.count("✓ allowed") == 2 and "modified" not in listing, listing)
    finally:
        home.cleanup()


# --- The bridge ----------------------------------------------------------------------------

def check_bridge():
    """Hermes runs `hermes-hooks run <event>` as a config hook and gets the Agent Hooks answer."""
    home = Home()
    try:
        folder = home.home / ".config" / "agents" / "hooks" / "no-rm"
        (folder / "scripts").mkdir(parents=True)
        (folder / "HOOK.md").write_text(
            "---\nname: no-rm\ndescription: no rm\ntrigger: pre-tool-call\n---\n")
        entry = folder / "scripts" / "run"
        entry.write_text("#!/bin/sh\np=$(cat)\ncase \"$p\" in\n"
                         "  *'rm -rf'*) echo 'rm is not allowed' >&2; exit 2;;\n"
                         "  *'ask me'*) printf '{\"decision\": \"ask\", \"reason\": \"a person decides\"}';;\n"
                         "esac\nexit 0\n")
        entry.chmod(0o755)
        home.config(f"hooks:\n  pre_tool_call:\n    - command: {BINARY} run pre_tool_call\n")
        home.ours("approve", "--yes")
        answers = json.loads(home.hermes_py(
            """
            import json
            from hermes_cli.config import load_config
            from agent import shell_hooks
            spec = shell_hooks.iter_configured_hooks(load_config())[0]
            out = []
            for command in ["rm -rf /", "ls", "ask me"]:
                r = shell_hooks.run_once(spec, {"tool_name": "terminal", "args": {"command": command},
                                                "session_id": "s"})
                out.append(r["parsed"])
            print(json.dumps(out))
            """
        ))
        report("the bridge: Hermes gets the Agent Hooks block",
               answers[0] == {"action": "block", "message": "rm is not allowed"}, answers)
        report("the bridge: and nothing when the hook allows", answers[1] is None, answers)
        # 0.19 has no ask for a shell hook (and ignores its exit status): it takes the line's
        # decision block.
        report("the bridge: Hermes 0.19 holds a call the Agent Hooks ask a person about",
               answers[2] == {"action": "block", "message": "a person decides; a person must "
                              "approve this call, and Hermes cannot ask for that here, so it "
                              "was blocked"}, answers)
    finally:
        home.cleanup()


def main():
    compare_payloads()
    compare_answers()
    compare_runs()
    compare_registration()
    compare_allowlists()
    check_bridge()
    print(f"\n{checks - len(failures)} of {checks} checks agree with Hermes")
    if failures:
        print("differences:\n  " + "\n  ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
