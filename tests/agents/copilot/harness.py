"""Drives the real GitHub Copilot CLI against a fake model and checks what its hooks achieve.

    harness.py COPILOT HERMES_HOOKS

COPILOT is the installed `copilot` launcher, HERMES_HOOKS the hermes-hooks binary. Each scenario
gets a scratch HOME (so nothing of this machine's Copilot or Hermes settings is read or written), a
project with a folder `keep/` the model tries to delete, a fake model server on 127.0.0.1 (Copilot
runs offline against it: COPILOT_PROVIDER_BASE_URL, COPILOT_OFFLINE) and hooks in the project's
.github/hooks/. The first half wires tiny scripts in Copilot's own hook contract (the control:
what the agent itself honours); the second half puts hermes-hooks in between, wired with
`hermes-hooks install copilot --project`, with a HOOK.md guard matching the `shell` class. Prints
one `ok`/`FAIL` line per check and exits 1 when any check failed.
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
COPILOT = os.path.abspath(sys.argv[1])
HERMES_HOOKS = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else None
# Copilot unpacks itself into the cache folder on its first start; one cache serves every run.
CACHE = Path(COPILOT).parents[2] / "cache"
RUN_DEADLINE = 120
DELETE = {"command": "rm -rf keep", "description": "Remove the folder"}
failures = []


def report(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name)
    if not ok:
        failures.append(name)
        for line in str(detail).splitlines()[-40:]:
            print("       " + line)


class Run:
    """One Copilot session in a scratch home and project, and what came out of it."""

    def __init__(self, setup=None, call=DELETE, prompt="Tidy up this folder.", trust=True, args=()):
        self.root = Path(tempfile.mkdtemp(prefix="copilot-hooks-"))
        self.home = self.root / "home"
        self.project = self.root / "project"
        (self.project / "keep").mkdir(parents=True)
        (self.project / "keep" / "file").write_text("precious\n")
        (self.project / "sub").mkdir()
        (self.home / ".hermes").mkdir(parents=True)
        if setup:
            setup(self)
        self.requests = []
        self.rc, self.stdout, self.stderr = self.drive(call, prompt, trust, args)

    def env(self, port=0):
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.home),
            "XDG_CACHE_HOME": str(CACHE),
            "HERMES_HOME": str(self.home / ".hermes"),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "NO_COLOR": "1",
            "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{port}/v1",
            "COPILOT_OFFLINE": "true",
            "COPILOT_MODEL": "gpt-4.1",
            "COPILOT_AUTO_UPDATE": "false",
        }

    def drive(self, call, prompt, trust, args=()):
        port_file = self.root / "port"
        log = self.root / "requests.jsonl"
        server_cmd = [sys.executable, str(HERE / "fake_model.py"), "--port-file", str(port_file)]
        server_cmd += ["--log", str(log), "--lifetime", str(RUN_DEADLINE + 60)]
        for one in call if isinstance(call, list) else [call] if call else []:
            server_cmd += ["--call", json.dumps(one)]
        server = subprocess.Popen(server_cmd)
        try:
            port = wait_for_port(port_file)
            cmd = [COPILOT, "-p", prompt, "--allow-all-tools", *args] + (["--trust-folder"] if trust else [])
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
        """The message lists of the conversation requests, in order."""
        return [r["body"]["messages"] for r in self.requests if r["body"] and "messages" in r["body"]]

    def sent_text(self):
        return "\n".join(json.dumps(messages) for messages in self.turns())

    def tool_results(self):
        last = self.turns()[-1] if self.turns() else []
        return "\n".join(str(m.get("content")) for m in last if m.get("role") == "tool")

    def prompts(self):
        """The user messages of the last request."""
        last = self.turns()[-1] if self.turns() else []
        return [str(m.get("content")) for m in last if m.get("role") == "user"]

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


def native(event, body):
    """A setup wiring one script in Copilot's own contract into .github/hooks/native.json."""

    def setup(run):
        path = run.root / "hooks" / "hook.sh"
        path.parent.mkdir(exist_ok=True)
        path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
        path.chmod(0o755)
        hooks = run.project / ".github" / "hooks"
        hooks.mkdir(parents=True)
        entry = {"type": "command", "bash": str(path), "timeoutSec": 30}
        (hooks / "native.json").write_text(json.dumps({"version": 1, "hooks": {event: [entry]}}))

    return setup


def native_checks():
    run = Run()
    report(
        "control: without hooks the model's `rm -rf keep` runs (the harness can lose the folder)",
        not run.survived() and run.rc == 0,
        run.detail(),
    )
    run.cleanup()

    run = Run(native("preToolUse", """\
        cat > "$COPILOT_PROJECT_DIR/../payload.json"
        echo '{"permissionDecision":"deny","permissionDecisionReason":"native-deny-reason"}'
        """))
    payload = json.loads((run.root / "payload.json").read_text())
    report(
        "native preToolUse top-level permissionDecision deny blocks; the reason reaches the model",
        run.survived() and "native-deny-reason" in run.tool_results(),
        run.detail(),
    )
    report(
        "native preToolUse payload: toolName bash, toolArgs an object with command; cwd, sessionId",
        payload.get("toolName") == "bash"
        and isinstance(payload.get("toolArgs"), dict)
        and payload["toolArgs"].get("command") == "rm -rf keep"
        and {"cwd", "sessionId", "timestamp"} <= set(payload),
        json.dumps(payload, indent=1),
    )
    run.cleanup()

    run = Run(native("preToolUse", """\
        echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"nested"}}'
        """))
    report("native preToolUse hookSpecificOutput (nested) deny is NOT read: the call runs", not run.survived(), run.detail())
    run.cleanup()

    run = Run(native("preToolUse", "echo native-exit2-reason >&2\nexit 2\n"))
    report("native preToolUse exit 2 denies the call; its stderr is not the reason the model gets",
           run.survived() and "native-exit2-reason" not in run.tool_results(), run.detail())
    run.cleanup()

    run = Run(native("PreToolUse", """\
        cat > "$COPILOT_PROJECT_DIR/../payload.json"
        echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"native-claude-deny"}}'
        """))
    payload = json.loads((run.root / "payload.json").read_text())
    report("native PreToolUse (Claude Code's name) gets Claude Code's payload (tool_name Bash) and reads hookSpecificOutput",
           run.survived() and "native-claude-deny" in run.tool_results() and payload.get("tool_name") == "Bash",
           json.dumps(payload) + "\n" + run.detail())
    run.cleanup()

    run = Run(native("preToolUse", "echo native-exit1 >&2\nexit 1\n"))
    report("native preToolUse exit 1 denies the call (Copilot fails closed on a hook error)", run.survived(), run.detail())
    run.cleanup()

    run = Run(native("preToolUse", """echo '{"modifiedArgs":{"command":"touch rewritten","description":"x"}}'\n"""))
    report(
        "native preToolUse top-level modifiedArgs rewrites the call",
        run.survived() and (run.project / "rewritten").exists(),
        run.detail(),
    )
    run.cleanup()

    run = Run(native("userPromptSubmitted", """echo '{"additionalContext":"native-prompt-context"}'\n"""), call=None)
    report("native userPromptSubmitted top-level additionalContext reaches the model",
           "native-prompt-context" in run.sent_text(), run.detail())
    run.cleanup()

    run = Run(native("agentStop", """\
        cat > /dev/null
        if [ -e "$COPILOT_PROJECT_DIR/../gated" ]; then exit 0; fi
        touch "$COPILOT_PROJECT_DIR/../gated"
        echo '{"decision":"block","reason":"native-keep-working"}'
        """), call=None)
    asked = [t for t in run.turns() if "native-keep-working" in json.dumps(t[-1:])]
    report("native agentStop {\"decision\":\"block\",\"reason\"} makes the model keep working once, the reason as the prompt",
           run.rc == 0 and len(asked) == 1, run.detail())
    run.cleanup()

    run = Run(native("preToolUse", """echo '{"permissionDecision":"deny","permissionDecisionReason":"untrusted"}'\n"""),
              trust=False)
    report("control: without --trust-folder, `copilot -p` does not load the project's hooks (the call runs)",
           not run.survived(), run.detail())
    run.cleanup()


def hermes_hook(run, name, trigger, body, tool_class=None, fail_closed=False, approve=True):
    """Writes a project HOOK.md hook, approves it under the scratch HERMES_HOME, and wires Copilot
    with `hermes-hooks install copilot --project`."""
    folder = run.project / ".agents" / "hooks" / name
    (folder / "scripts").mkdir(parents=True)
    matcher = f"matcher:\n  tool: {tool_class}\n" if tool_class else ""
    closed = "fail_closed: true\n" if fail_closed else ""
    front = f"---\nname: {name}\ndescription: A check of the Copilot wiring.\ntrigger: {trigger}\n{matcher}{closed}---\n"
    (folder / "HOOK.md").write_text(front + "Used by the Copilot checks.\n")
    entry = folder / "scripts" / "run"
    entry.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    entry.chmod(0o755)
    steps = [["install", "copilot", "--project", str(run.project)]]
    if approve:
        steps.insert(0, ["approve", "--yes"])
    for args in steps:
        done = subprocess.run([HERMES_HOOKS] + args, cwd=run.project, env=run.env(),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(args)} failed: {done.stderr}")
    written = json.loads((run.project / ".github" / "hooks" / "hermes-hooks.json").read_text())
    missing = [e for e in ["sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "agentStop"]
               if e not in written["hooks"]]
    if missing:
        raise RuntimeError(f"install copilot did not wire {missing}: {json.dumps(written)}")


def through(name, trigger, body, tool_class=None, call=DELETE, **options):
    return Run(lambda run: hermes_hook(run, name, trigger, body, tool_class, **options), call=call)


NO_RM = """\
payload=$(cat)
case "$payload" in *"rm -rf"*) echo '{"decision":"block","reason":"hh-deny-reason"}' ;; esac
"""


def hermes_checks():
    run = through("no-rm", "pre_tool_call", NO_RM, tool_class="shell")
    report("hermes-hooks: a HOOK.md guard on the shell class blocks Copilot's bash; the reason reaches the model",
           run.survived() and "hh-deny-reason" in run.tool_results(), run.detail())
    run.cleanup()

    run = through("defuse", "pre_tool_call", """\
        payload=$(cat)
        case "$payload" in *"rm -rf"*) echo '{"action":"modify","args":{"command":"touch rewritten"}}' ;; esac
        """, tool_class="shell")
    report("hermes-hooks: a rewrite runs the rewritten command instead",
           run.survived() and (run.project / "rewritten").exists(), run.detail())
    run.cleanup()

    run = through("after-note", "post-tool-call", """echo '{"context":"hh-after-tool"}'\n""",
                  call={"command": "echo hello", "description": "Say hello"})
    report("hermes-hooks: context after a tool (postToolUse) reaches the model with the tool's result",
           "hh-after-tool" in run.tool_results(), run.detail())
    run.cleanup()

    run = through("prompt-context", "pre_llm_call", """echo '{"context":"hh-prompt-context"}'\n""", call=None)
    report("hermes-hooks: context on pre_llm_call (userPromptSubmitted) reaches the model",
           "hh-prompt-context" in run.sent_text(), run.detail())
    run.cleanup()

    run = through("gate", "pre_verify", """\
        cat > /dev/null
        if [ -e ../gated ]; then exit 0; fi
        touch ../gated
        echo '{"action":"continue","message":"hh-keep-working"}'
        """, call=None)
    asked = [t for t in run.turns() if "hh-keep-working" in json.dumps(t[-1:])]
    report("hermes-hooks: the quality gate on pre_verify (agentStop) makes the model keep working once",
           run.rc == 0 and len(asked) == 1, run.detail())
    run.cleanup()

    run = through("no-rm", "pre_tool_call", NO_RM, tool_class="shell", approve=False)
    report("hermes-hooks: a guard nobody approved does not run (consent): the call runs",
           not run.survived(), run.detail())
    run.cleanup()

    run = through("broken", "pre_tool_call", "cat > /dev/null\necho not json\n", tool_class="shell",
                  fail_closed=True)
    report("hermes-hooks: a fail_closed guard that breaks blocks the call; the model is told why",
           run.survived() and "fail_closed" in run.tool_results(), run.detail())
    run.cleanup()


def hostile_checks():
    # The model makes an empty nested .agents/hooks, then deletes from there.
    calls = [
        {"command": "mkdir -p sub/.agents/hooks", "description": "Make a folder"},
        {"command": "cd sub && rm -rf ../keep", "description": "Remove the folder"},
    ]
    run = through("no-rm", "pre_tool_call", NO_RM, tool_class="shell", call=calls)
    report("hostile: an empty nested .agents/hooks and a delete run from there do not switch the "
           "project's shell guard off",
           run.survived() and (run.project / "sub" / ".agents" / "hooks").is_dir()
           and "hh-deny-reason" in run.tool_results(), run.detail())
    run.cleanup()


def model_read(run):
    """The first tool result the model was sent, or a note that there was none."""
    return run.tool_results().splitlines()[0] if run.tool_results() else "(no tool result)"


def ask_checks():
    """A hook answering ask on the bash call, with `copilot -p` (nobody to ask): natively, in
    Copilot's own words (the control, noted), then a guard's `decision: ask` through hermes-hooks,
    which Copilot gets as a deny that says a person must approve. The command must not run."""
    run = Run(native("preToolUse", """echo '{"permissionDecision":"ask","permissionDecisionReason":"native-ask"}'\n"""))
    print("note: native preToolUse permissionDecision ask in -p: keep %s, exit %s, the model read: %s"
          % ("survived" if run.survived() else "was deleted", run.rc, model_read(run)))
    run.cleanup()

    run = through("ask-rm", "pre_tool_call", """\
        payload=$(cat)
        case "$payload" in *"rm -rf"*) echo '{"decision":"ask","reason":"hh-ask-reason"}' ;; esac
        """, tool_class="shell")
    report("hermes-hooks: a guard's ask (decision ask, a deny for Copilot) does not run the command in -p",
           run.survived(), run.detail())
    report("hermes-hooks: a guard's ask tells the model that a person must approve the call, which Copilot "
           "cannot ask for",
           "hh-ask-reason" in run.tool_results() and "a person must approve" in run.tool_results(),
           run.detail())
    print("note: ask through hermes-hooks in -p: keep %s, exit %s, the model read: %s"
          % ("survived" if run.survived() else "was deleted", run.rc, model_read(run)))
    run.cleanup()


def hermes_call(run, *args):
    return subprocess.run([HERMES_HOOKS, *args], cwd=run.project, env=run.env(),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def rules_checks():
    """The shipped destructive pack (`new --rules destructive`, `approve --yes`), no script hook,
    Copilot wired by `install copilot`: the model asks bash for `rm -rf` of a folder outside the
    project; first without the pack (the control: the folder goes), then with it. Copilot asks
    about a path outside the project by itself (and in -p denies it), so both runs let every path
    go (--allow-all-paths): only the pack stands in the way."""
    for with_pack in (False, True):
        outside = rules_pack.Outside()
        said = []

        def setup(run, with_pack=with_pack):
            if with_pack:
                said.append(rules_pack.install(lambda *args: hermes_call(run, *args),
                                               run.home / ".hermes"))
            installed = hermes_call(run, "install", "copilot", "--project", str(run.project))
            if installed.returncode != 0:
                raise RuntimeError("install copilot failed: " + installed.stderr)

        run = Run(setup, call={"command": outside.command, "description": "Remove the folder"},
                  args=("--allow-all-paths",))
        try:
            rules_pack.report_run(
                report, with_pack, outside.survived(), run.tool_results(), run.detail(),
                lambda: (said[0] in run.tool_results(), said[0]))
        finally:
            outside.cleanup()
            run.cleanup()


def main():
    started = time.monotonic()
    only = os.environ.get("AGENT_CHECKS")
    if only in ("self", "missing"):
        # The self-protection and missing-program checks run in Claude Code and Codex only.
        print("copilot: skipped: no %s checks for this agent" % only, file=sys.stderr)
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
    print(f"copilot: checks took {time.monotonic() - started:.0f}s", file=sys.stderr)
    if failures:
        print(f"copilot: {len(failures)} check(s) failed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
