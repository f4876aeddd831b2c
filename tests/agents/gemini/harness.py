"""Drives the real Gemini CLI against a fake model and checks what its hooks achieve.

    harness.py GEMINI HERMES_HOOKS

GEMINI is the installed `gemini` launcher, HERMES_HOOKS the hermes-hooks binary. Each scenario
gets a scratch HOME (so nothing of this machine's Gemini or Hermes settings is read or written), a
project with a folder `keep/` the model tries to delete, a fake model server on 127.0.0.1 and
hooks wired in the project's .gemini/settings.json. The first half wires tiny scripts in Gemini's
own hook contract (the control: what the agent itself honours); the second half puts hermes-hooks
in between, with a HOOK.md guard matching the `shell` class. Prints one `ok`/`FAIL` line per check
and exits 1 when any check failed.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules_pack  # noqa: E402

HERE = Path(__file__).resolve().parent
GEMINI = os.path.abspath(sys.argv[1])
HERMES_HOOKS = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
MODEL = "gemini-2.5-flash"
RUN_DEADLINE = 180
DELETE = {"command": "rm -rf keep"}
failures = []


def report(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        for line in str(detail).splitlines()[-40:]:
            print("       " + line)


class Run:
    """One Gemini session in a scratch home and project, and what came out of it."""

    def __init__(
        self, hooks, call=None, prompt="Tidy up this folder.", setup=None, project_settings=None, tool=None
    ):
        self.root = Path(tempfile.mkdtemp(prefix="gemini-hooks-"))
        self.home = self.root / "home"
        self.project = self.root / "project"
        (self.project / "keep").mkdir(parents=True)
        (self.project / "keep" / "file").write_text("precious\n")
        (self.project / "sub").mkdir()
        self.write_user_settings()
        if setup:
            setup(self)
        settings = self.project / ".gemini" / "settings.json"
        settings.parent.mkdir(parents=True, exist_ok=True)
        settings.write_text(json.dumps({**(project_settings or {}), "hooks": hooks}, indent=2))
        self.requests = []
        self.rc, self.stdout, self.stderr = self.drive(call, prompt, tool)

    def write_user_settings(self):
        gemini_dir = self.home / ".gemini"
        gemini_dir.mkdir(parents=True)
        settings = {
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "privacy": {"usageStatisticsEnabled": False},
            "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
        }
        (gemini_dir / "settings.json").write_text(json.dumps(settings))

    def env(self, port):
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "HERMES_HOME": str(self.home / ".hermes"),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "GEMINI_API_KEY": "dummy",
            "GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "GEMINI_CLI_NO_RELAUNCH": "true",
        }

    def drive(self, call, prompt, tool):
        port_file = self.root / "port"
        log = self.root / "requests.jsonl"
        server_cmd = [sys.executable, str(HERE / "fake_model.py"), "--port-file", str(port_file)]
        server_cmd += ["--log", str(log), "--lifetime", str(RUN_DEADLINE + 60)]
        if call:
            server_cmd += ["--call", json.dumps(call)]
        if tool:
            server_cmd += ["--tool", tool]
        server = subprocess.Popen(server_cmd)
        try:
            port = wait_for_port(port_file)
            cmd = [GEMINI, "-p", prompt, "--yolo", "-m", MODEL, "-o", "text"]
            done = subprocess.run(
                cmd,
                cwd=self.project,
                env=self.env(port),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=RUN_DEADLINE,
            )
        finally:
            server.terminate()
            server.wait(timeout=30)
        if log.exists():
            self.requests = [json.loads(line) for line in log.read_text().splitlines()]
        return done.returncode, done.stdout, done.stderr

    def turns(self):
        """The bodies of the conversation requests (not the side calls), in order."""
        return [r["body"] for r in self.requests if r["path"].split("?")[0].endswith(":streamGenerateContent")]

    def sent_text(self):
        """Everything the model was sent in conversation turns, as one string."""
        return "\n".join(json.dumps(body.get("contents", [])) for body in self.turns())

    def tool_results(self):
        results = []
        for body in self.turns():
            for content in body.get("contents", []):
                for part in content.get("parts", []):
                    if "functionResponse" in part:
                        results.append(json.dumps(part["functionResponse"]))
        return "\n".join(results)

    def survived(self):
        return (self.project / "keep" / "file").exists()

    def detail(self):
        return f"exit {self.rc}\nstdout:\n{self.stdout}\nstderr:\n{self.stderr}\nsent:\n{self.sent_text()[-3000:]}"

    def cleanup(self):
        shutil.rmtree(self.root, ignore_errors=True)


def wait_for_port(port_file):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if port_file.exists():
            return int(port_file.read_text())
        time.sleep(0.05)
    raise RuntimeError("the fake model server did not start")


def script(run, name, body):
    """Writes an executable hook script into the scratch root and returns its path."""
    path = run.root / "hooks" / name
    path.parent.mkdir(exist_ok=True)
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return str(path)


def wire(event, command, matcher=None, timeout_ms=30000):
    entry = {"hooks": [{"type": "command", "command": command, "timeout": timeout_ms}]}
    if matcher:
        entry["matcher"] = matcher
    return {event: [entry]}


def native(event, name, body, matcher=None):
    """Hooks for Run: one script in Gemini's own contract, written before the session starts."""
    holder = {}

    def setup(run):
        holder["hooks"] = wire(event, script(run, name, body), matcher)

    return holder, setup


def run_with(holder, setup, call, prompt="Tidy up this folder.", tool=None):
    """Runs a session whose hooks are decided by setup (which fills holder["hooks"])."""

    hooks = {}

    def both(run):
        setup(run)
        hooks.update(holder["hooks"])

    return Run(hooks, call=call, prompt=prompt, setup=both, tool=tool)


def user_guard_under(project_settings):
    """A deny guard in the user's settings, and a project whose settings say project_settings."""

    def setup(run):
        guard = script(run, "user-guard.sh", "echo '{\"decision\":\"deny\",\"reason\":\"user-guard\"}'\n")
        path = run.home / ".gemini" / "settings.json"
        settings = json.loads(path.read_text())
        entry = {"hooks": [{"type": "command", "name": "user-guard", "command": guard}]}
        settings["hooks"] = {"BeforeTool": [entry]}
        path.write_text(json.dumps(settings))

    run = Run({}, call=DELETE, setup=setup, project_settings=project_settings)
    return run


def native_checks():
    baseline = Run({}, call=DELETE)
    report(
        "control: without hooks the model's `rm -rf keep` runs (the harness can lose the folder)",
        not baseline.survived() and baseline.rc == 0,
        baseline.detail(),
    )
    baseline.cleanup()

    holder, setup = native(
        "BeforeTool",
        "deny.sh",
        """\
        cat > "$GEMINI_PROJECT_DIR/../payload.json"
        echo '{"decision":"deny","reason":"native-deny-reason"}'
        """,
        matcher="run_shell_command",
    )
    run = run_with(holder, setup, DELETE)
    report(
        "native BeforeTool exit 0 + {\"decision\":\"deny\",\"reason\"} blocks; the reason reaches the model",
        run.survived() and "native-deny-reason" in run.tool_results(),
        run.detail(),
    )
    payload = json.loads((run.root / "payload.json").read_text())
    wanted = {"hook_event_name", "session_id", "transcript_path", "cwd", "timestamp", "tool_name", "tool_input"}
    report(
        "native BeforeTool payload: " + ", ".join(sorted(wanted)) + "; tool_name run_shell_command",
        wanted <= set(payload)
        and payload["tool_name"] == "run_shell_command"
        and payload["tool_input"].get("command") == "rm -rf keep"
        and payload["hook_event_name"] == "BeforeTool",
        json.dumps(payload, indent=1),
    )
    run.cleanup()

    holder, setup = native(
        "BeforeTool", "block.sh", """echo '{"decision":"block","reason":"native-block-reason"}'\n"""
    )
    run = run_with(holder, setup, DELETE)
    report(
        "native BeforeTool {\"decision\":\"block\"} blocks as deny does",
        run.survived() and "native-block-reason" in run.tool_results(),
        run.detail(),
    )
    run.cleanup()

    holder, setup = native("BeforeTool", "exit2.sh", "echo native-exit2-reason >&2\nexit 2\n")
    run = run_with(holder, setup, DELETE)
    report(
        "native BeforeTool exit 2 + stderr (stdout empty) blocks; stderr is the reason",
        run.survived() and "native-exit2-reason" in run.tool_results(),
        run.detail(),
    )
    run.cleanup()

    holder, setup = native(
        "BeforeTool",
        "hermes-line.sh",
        """\
        echo '{"event":"pre_tool_call","action":"block","message":"hermes-line"}'
        echo hermes-line >&2
        exit 2
        """,
    )
    run = run_with(holder, setup, DELETE)
    report(
        "native BeforeTool exit 2 with a JSON line without `decision` on stdout does NOT block (stdout wins)",
        not run.survived(),
        run.detail(),
    )
    run.cleanup()

    holder, setup = native("BeforeTool", "silent-exit2.sh", "exit 2\n")
    run = run_with(holder, setup, DELETE)
    report(
        "native BeforeTool exit 2 with stdout and stderr empty does NOT block (nothing to read)",
        not run.survived(),
        run.detail(),
    )
    run.cleanup()

    holder, setup = native("BeforeTool", "missing.sh", "exec /nonexistent/hermes-hooks run\n")
    run = run_with(holder, setup, DELETE)
    report(
        "native BeforeTool: a command that is not found (exit 127, text on stderr) blocks the call",
        run.survived() and "not found" in run.tool_results(),
        run.detail(),
    )
    run.cleanup()

    holder, setup = native("BeforeTool", "warn.sh", "echo native-warning >&2\nexit 1\n")
    run = run_with(holder, setup, DELETE)
    report("native BeforeTool exit 1 + stderr is a warning: the call runs", not run.survived(), run.detail())
    run.cleanup()

    holder, setup = native("BeforeTool", "plain.sh", "echo native plain text\n")
    run = run_with(holder, setup, DELETE)
    report("native BeforeTool plain text on stdout with exit 0: the call runs", not run.survived(), run.detail())
    run.cleanup()

    def slow(run):
        body = "sleep 5\necho '{\"decision\":\"deny\",\"reason\":\"late\"}'\n"
        holder["hooks"] = wire("BeforeTool", script(run, "slow.sh", body), timeout_ms=1000)

    holder = {}
    run = run_with(holder, slow, DELETE)
    report("native BeforeTool past its timeout fails open: the call runs", not run.survived(), run.detail())
    run.cleanup()

    run = user_guard_under({})
    report("control: a guard in the user's settings blocks in a trusted project", run.survived(), run.detail())
    run.cleanup()

    for name, project_settings in [
        ("hooksConfig.enabled false", {"hooksConfig": {"enabled": False}}),
        ("hooksConfig.disabled naming it", {"hooksConfig": {"disabled": ["user-guard"]}}),
    ]:
        run = user_guard_under(project_settings)
        report(
            f"native: a project's .gemini/settings.json with {name} switches off a user-level guard",
            not run.survived(),
            run.detail(),
        )
        run.cleanup()

    holder, setup = native("BeforeTool", "nothing.sh", "echo '{}'\n")
    run = run_with(holder, setup, DELETE)
    report("native BeforeTool exit 0 + {} lets the call run", not run.survived(), run.detail())
    run.cleanup()

    holder, setup = native(
        "BeforeTool",
        "rewrite.sh",
        """echo '{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"touch rewritten"}}}'\n""",
    )
    run = run_with(holder, setup, DELETE)
    report(
        "native BeforeTool hookSpecificOutput.tool_input rewrites the call (the rewritten command ran)",
        run.survived() and (run.project / "rewritten").exists(),
        run.detail(),
    )
    run.cleanup()

    holder, setup = native("BeforeTool", "allow.sh", "echo '{}'\n")
    run = run_with(holder, setup, {"command": "pwd > where.txt", "dir_path": "sub"})
    report(
        "control: the model's own dir_path is honoured (the shell runs in sub/)",
        (run.project / "sub" / "where.txt").exists(),
        run.detail(),
    )
    run.cleanup()

    holder, setup = native(
        "BeforeTool",
        "rewrite-partial.sh",
        """echo '{"hookSpecificOutput":{"tool_input":{"command":"pwd > where.txt"}}}'\n""",
    )
    run = run_with(holder, setup, {"command": "rm -rf ../keep", "dir_path": "sub"})
    merged = (run.project / "sub" / "where.txt").exists()
    replaced = (run.project / "where.txt").exists()
    report(
        "native BeforeTool tool_input replaces the arguments whole (dir_path the model gave is dropped)",
        run.survived() and replaced and not merged,
        f"merged={merged} replaced={replaced}\n" + run.detail(),
    )
    run.cleanup()

    holder, setup = native(
        "BeforeAgent",
        "prompt-context.sh",
        """\
        cat > "$GEMINI_PROJECT_DIR/../payload.json"
        echo '{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"native-prompt-context"}}'
        """,
    )
    run = run_with(holder, setup, None)
    payload = json.loads((run.root / "payload.json").read_text())
    report(
        "native BeforeAgent hookSpecificOutput.additionalContext reaches the model",
        "native-prompt-context" in run.sent_text(),
        run.detail(),
    )
    report(
        "native BeforeAgent payload carries `prompt`",
        "Tidy up this folder." in payload.get("prompt", ""),
        json.dumps(payload, indent=1),
    )
    run.cleanup()

    holder, setup = native(
        "SessionStart",
        "session-context.sh",
        """echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"native-session-context"}}'\n""",
    )
    run = run_with(holder, setup, None)
    report(
        "native SessionStart hookSpecificOutput.additionalContext reaches the model",
        "native-session-context" in run.sent_text(),
        run.detail(),
    )
    run.cleanup()

    holder, setup = native(
        "AfterAgent",
        "gate.sh",
        """\
        cat >> "$GEMINI_PROJECT_DIR/../payloads.jsonl"; echo >> "$GEMINI_PROJECT_DIR/../payloads.jsonl"
        if [ -e "$GEMINI_PROJECT_DIR/../gated" ]; then echo '{}'; exit 0; fi
        touch "$GEMINI_PROJECT_DIR/../gated"
        echo '{"decision":"deny","reason":"native-keep-working"}'
        """,
    )
    run = run_with(holder, setup, None)
    payloads = [json.loads(l) for l in (run.root / "payloads.jsonl").read_text().split("\n") if l.strip()]
    asked = [t for t in run.turns() if "native-keep-working" in json.dumps(t.get("contents", [])[-1:])]
    report(
        "native AfterAgent {\"decision\":\"deny\",\"reason\"} makes the model keep working once, with the reason as the prompt",
        run.rc == 0 and len(asked) == 1 and len(payloads) == 2,
        f"payloads={payloads}\n" + run.detail(),
    )
    report(
        "native AfterAgent payload: prompt, prompt_response, stop_hook_active (true on the second stop)",
        len(payloads) == 2
        and payloads[0].get("stop_hook_active") is False
        and payloads[1].get("stop_hook_active") is True
        and "prompt_response" in payloads[0],
        json.dumps(payloads, indent=1),
    )
    run.cleanup()


GEMINI_EVENTS = ["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent"]


def hermes_hook(run, name, trigger, body, tool_class=None):
    """Writes a project HOOK.md hook, approves it under the scratch HERMES_HOME, and wires Gemini
    with `hermes-hooks install gemini --project`."""
    folder = run.project / ".agents" / "hooks" / name
    (folder / "scripts").mkdir(parents=True)
    matcher = f"matcher:\n  tool: {tool_class}\n" if tool_class else ""
    front = f"---\nname: {name}\ndescription: A check of the Gemini wiring.\ntrigger: {trigger}\n{matcher}---\n"
    (folder / "HOOK.md").write_text(front + "Used by the Gemini checks.\n")
    entry = folder / "scripts" / "run"
    entry.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    entry.chmod(0o755)
    approve = subprocess.run(
        [HERMES_HOOKS, "approve", "--yes"],
        cwd=run.project,
        env={**run.env(0), "HERMES_HOME": str(run.home / ".hermes")},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if approve.returncode != 0:
        raise RuntimeError("approve failed: " + approve.stderr)
    # Wired as a person would: `hermes-hooks install gemini` in the project (the settings name
    # the binary bare, so it is found on PATH).
    installed = subprocess.run(
        [HERMES_HOOKS, "install", "gemini", "--project", str(run.project)],
        cwd=run.project,
        env={**run.env(0), "HERMES_HOME": str(run.home / ".hermes")},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if installed.returncode != 0:
        raise RuntimeError("install gemini failed: " + installed.stderr)
    written = json.loads((run.project / ".gemini" / "settings.json").read_text())
    hooks = written["hooks"]
    missing = [event for event in GEMINI_EVENTS if event not in hooks]
    if missing:
        raise RuntimeError(f"install gemini did not wire {missing}: {json.dumps(hooks)}")
    return hooks


def through(name, trigger, body, tool_class=None, call=DELETE, tool=None):
    holder = {}

    def setup(run):
        (run.home / ".hermes").mkdir(parents=True, exist_ok=True)
        holder["hooks"] = hermes_hook(run, name, trigger, body, tool_class)

    return run_with(holder, setup, call, tool=tool)


def hermes_checks():
    run = through(
        "no-rm",
        "pre_tool_call",
        """\
        payload=$(cat)
        case "$payload" in *"rm -rf"*) echo '{"decision":"block","reason":"hh-deny-reason"}' ;; esac
        """,
        tool_class="shell",
    )
    report(
        "hermes-hooks: a HOOK.md guard on the shell class blocks Gemini's run_shell_command; the reason reaches the model",
        run.survived() and "hh-deny-reason" in run.tool_results(),
        run.detail(),
    )
    run.cleanup()

    run = through(
        "no-rm",
        "pre_tool_call",
        """\
        payload=$(cat)
        case "$payload" in *"rm -rf"*) echo '{"action":"block","message":"hh-unmatched"}' ;; esac
        """,
        tool_class="edit",
    )
    report(
        "hermes-hooks: a guard on another class (edit) leaves run_shell_command alone",
        not run.survived(),
        run.detail(),
    )
    run.cleanup()

    run = through(
        "defuse",
        "pre_tool_call",
        """\
        payload=$(cat)
        case "$payload" in *"rm -rf"*) echo '{"action":"modify","args":{"command":"pwd > rewritten"}}' ;; esac
        """,
        tool_class="shell",
        call={"command": "rm -rf ../keep", "dir_path": "sub"},
    )
    report(
        "hermes-hooks: a rewrite runs the rewritten command and keeps the arguments the hook left alone",
        run.survived() and (run.project / "sub" / "rewritten").exists(),
        run.detail(),
    )
    run.cleanup()

    run = through(
        "no-search",
        "pre_tool_call",
        """echo '{"decision":"block","reason":"hh-no-search"}'\n""",
        tool_class="search",
        call={"pattern": "precious"},
        tool="grep_search",
    )
    report(
        "hermes-hooks: a guard on the search class blocks Gemini's grep_search",
        "hh-no-search" in run.tool_results() and "precious" not in run.tool_results(),
        run.detail(),
    )
    run.cleanup()

    run = through(
        "after-note",
        "post-tool-call",
        """echo '{"context":"hh-after-tool"}'\n""",
        call={"command": "echo hello"},
    )
    report(
        "hermes-hooks: context after a tool (AfterTool) reaches the model with the tool's result",
        "hh-after-tool" in run.tool_results(),
        run.detail(),
    )
    run.cleanup()

    run = through(
        "failed-read",
        "post-tool-call-failure",
        """cat > ../failure-hook-ran\n""",
        call={"file_path": "missing.txt"},
        tool="read_file",
    )
    report(
        "hermes-hooks: a tool call Gemini reports as failed runs the post-tool-call-failure hooks",
        (run.root / "failure-hook-ran").exists(),
        run.detail(),
    )
    run.cleanup()

    run = through("prompt-context", "pre_llm_call", """echo '{"context":"hh-prompt-context"}'\n""", call=None)
    report(
        "hermes-hooks: context on pre_llm_call (BeforeAgent) reaches the model",
        "hh-prompt-context" in run.sent_text(),
        run.detail(),
    )
    run.cleanup()

    run = through("session-context", "pre-session", """echo '{"context":"hh-session-context"}'\n""", call=None)
    report(
        "hermes-hooks: context on pre-session (SessionStart) reaches the model",
        "hh-session-context" in run.sent_text(),
        run.detail(),
    )
    run.cleanup()

    run = through(
        "gate",
        "pre_verify",
        """\
        cat > /dev/null
        if [ -e ../gated ]; then exit 0; fi
        touch ../gated
        echo '{"action":"continue","message":"hh-keep-working"}'
        """,
        call=None,
    )
    asked = [t for t in run.turns() if "hh-keep-working" in json.dumps(t.get("contents", [])[-1:])]
    report(
        "hermes-hooks: the quality gate on pre_verify (AfterAgent) makes the model keep working once",
        run.rc == 0 and len(asked) == 1,
        run.detail(),
    )
    run.cleanup()


# A hostile model: each way around a guard it may try. Every escape must be blocked, or shown to
# the person running the agent.

NO_RM = """\
payload=$(cat)
case "$payload" in *"rm -rf"*) echo '{"decision":"block","reason":"hostile-guard"}' ;; esac
"""


def hostile_checks():
    # Where Gemini shows a person a hook's systemMessage in -p mode (the control).
    holder, setup = native("BeforeTool", "sys.sh", "cat >/dev/null\necho '{\"systemMessage\":\"NATIVE-SYS-MSG\"}'\n")
    run = run_with(holder, setup, {"command": "echo hi"})
    note = "stdout" if "NATIVE-SYS-MSG" in run.stdout else "stderr" if "NATIVE-SYS-MSG" in run.stderr else "nowhere"
    print(f"note: Gemini -p shows a BeforeTool systemMessage on {note}")
    run.cleanup()

    # 1. An empty nested .agents/hooks (made by an earlier call) and the command run from there
    # (run_shell_command's dir_path).
    holder = {}

    def nested(run):
        (run.home / ".hermes").mkdir(parents=True, exist_ok=True)
        holder["hooks"] = hermes_hook(run, "no-rm", "pre_tool_call", NO_RM, "shell")
        (run.project / "sub" / ".agents" / "hooks").mkdir(parents=True)

    run = run_with(holder, nested, {"command": "rm -rf ../keep", "dir_path": "sub"})
    report("hostile: an empty nested .agents/hooks and a command run from there (dir_path) do not "
           "switch the project's shell guard off", run.survived(), run.detail())
    run.cleanup()

    # 2. The person fixes a typo in an approved guard: changed since approval, it does not run;
    # the person is told, with the hook's name and `hermes-hooks approve`.
    holder = {}

    def edited(run):
        (run.home / ".hermes").mkdir(parents=True, exist_ok=True)
        holder["hooks"] = hermes_hook(run, "no-rm", "pre_tool_call", NO_RM, "shell")
        with open(run.project / ".agents" / "hooks" / "no-rm" / "scripts" / "run", "a") as f:
            f.write("# a typo, fixed\n")

    run = run_with(holder, edited, DELETE)
    shown = run.stdout + run.stderr
    report("hostile: a guard edited since approval is named to the person (systemMessage with the "
           "hook and `hermes-hooks approve`)",
           run.survived() or ("no-rm" in shown and "hermes-hooks approve" in shown), run.detail())
    run.cleanup()


def model_read(run):
    """The first tool result the model was sent, as JSON text, or a note that there was none."""
    read = run.tool_results().splitlines()[0] if run.tool_results() else "(no tool result)"
    return "%s; %d model turn(s); stdout %s" % (read, len(run.turns()), json.dumps(run.stdout.strip()[-200:]))


def ask_checks():
    """A hook answering `decision: ask` on the shell call, with Gemini in -p and --yolo (nobody
    to ask, and every call approved beforehand): first natively (the control, noted), then
    through hermes-hooks, which renders it as Gemini's own ask. The command must not run."""
    holder, setup = native(
        "BeforeTool", "ask.sh", "cat >/dev/null\necho '{\"decision\":\"ask\",\"reason\":\"NATIVE-ASK\"}'\n")
    run = run_with(holder, setup, DELETE)
    print("note: native ask on BeforeTool in -p --yolo: keep %s, exit %s, the model read: %s" % (
        "survived" if run.survived() else "was deleted", run.rc, model_read(run)))
    run.cleanup()

    run = through(
        "ask-rm",
        "pre_tool_call",
        """\
        payload=$(cat)
        case "$payload" in *"rm -rf"*) echo '{"decision":"ask","reason":"hh-ask-reason"}' ;; esac
        """,
        tool_class="shell",
    )
    report("hermes-hooks: a guard's ask (decision ask, Gemini's ask in -p --yolo) does not run the command",
           run.survived(), run.detail())
    print("note: ask through hermes-hooks in -p --yolo: keep %s, exit %s, the model read: %s" % (
        "survived" if run.survived() else "was deleted", run.rc, model_read(run)))
    run.cleanup()


def hermes_call(run, *args):
    return subprocess.run([HERMES_HOOKS, *args], cwd=run.project, env=run.env(0),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def rules_checks():
    """The shipped destructive pack (`new --rules destructive`, `approve --yes`), no script hook,
    Gemini wired by `install gemini`: the model asks run_shell_command for `rm -rf` of a folder
    outside the project; first without the pack (the control: the folder goes), then with it."""
    for with_pack in (False, True):
        outside = rules_pack.Outside()
        holder, said = {}, []

        def setup(run, with_pack=with_pack):
            (run.home / ".hermes").mkdir(parents=True, exist_ok=True)
            if with_pack:
                said.append(rules_pack.install(lambda *args: hermes_call(run, *args),
                                               run.home / ".hermes"))
            installed = hermes_call(run, "install", "gemini", "--project", str(run.project))
            if installed.returncode != 0:
                raise RuntimeError("install gemini failed: " + installed.stderr)
            holder["hooks"] = json.loads(
                (run.project / ".gemini" / "settings.json").read_text())["hooks"]

        run = run_with(holder, setup, {"command": outside.command})
        try:
            rules_pack.report_run(
                report, with_pack, outside.survived(), run.tool_results(), run.detail(),
                lambda: (said[0] in run.tool_results(), said[0]))
        finally:
            outside.cleanup()
            run.cleanup()


def main():
    only = os.environ.get("AGENT_CHECKS")
    if only in ("self", "missing"):
        # The self-protection and missing-program checks run in Claude Code and Codex only.
        print("gemini: skipped: no %s checks for this agent" % only, file=sys.stderr)
        return
    if only not in ("hostile", "ask", "rules"):
        native_checks()
    if HERMES_HOOKS:
        # The project settings `install` writes name the binary bare.
        os.environ["PATH"] = os.path.dirname(HERMES_HOOKS) + os.pathsep + os.environ.get("PATH", "")
        if only not in ("hostile", "ask", "rules"):
            hermes_checks()
        if only not in ("hostile", "ask"):
            rules_checks()
        if only not in ("hostile", "rules"):
            ask_checks()
        if only not in ("ask", "rules"):
            hostile_checks()
    if failures:
        print(f"gemini: {len(failures)} check(s) failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
