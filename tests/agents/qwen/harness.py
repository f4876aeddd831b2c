#!/usr/bin/env python3
"""Drives the real Qwen Code (`qwen --yolo PROMPT`) against a scripted model and checks what its
hooks achieve: first with hooks in Qwen's own contract (native_hook.py, the control), then with
hermes-hooks in between (a project HOOK.md guard wired with `install qwen --project`).

    harness.py QWEN HERMES_HOOKS

The model is fake_model.py (OpenAI's chat completions), named by OPENAI_BASE_URL; the guard is
Claude Code's harness guard (../claude-code/guard_hook.py), which answers in the Hermes dialect. Every run has its own HOME,
project folder and model server on 127.0.0.1; any other host is pointed at a closed port. Prints
one `ok`/`FAIL` line per check (`note` lines say what was observed without judging it) and exits
1 when a check failed.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The shared helpers are imported without leaving compiled files in the checkout.
sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from claude_like import failures, note, report, wait_for_port  # noqa: E402
import claude_like  # noqa: E402

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent / "claude-code"
QWEN = os.path.abspath(sys.argv[1])
HERMES_HOOKS = os.path.abspath(sys.argv[2])
PYTHON = sys.executable
RUN_TIMEOUT = int(os.environ.get("AGENT_RUN_TIMEOUT", "120"))
MARKER = "rewritten.marker"
EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure",
          "Stop", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "Notification",
          "SessionEnd"]
SHELL = {"name": "run_shell_command", "arguments": {"command": "rm -rf keep"}}


class Run:
    """One agent run: a scratch HOME, a project with keep/, a model server, the agent's result."""

    def __init__(self, label):
        self.root = Path(tempfile.mkdtemp(prefix="qwen-agent-"))
        self.label = label
        self.home = self.root / "home"
        self.hermes = self.root / "hermes"
        self.proj = self.root / "proj"
        self.payloads = self.root / "payloads.jsonl"
        for d in (self.home, self.hermes, self.proj / "keep", self.proj / ".qwen"):
            d.mkdir(parents=True)
        (self.proj / "keep" / "precious.txt").write_text("keep me\n")
        self.requests = []
        self.result = None
        self.extra_env = {}

    def settings(self, hooks):
        (self.proj / ".qwen" / "settings.json").write_text(json.dumps({"hooks": hooks}, indent=2))

    def env(self, port):
        env = {
            # A project's wiring names the program bare: it must be on PATH.
            "PATH": os.pathsep.join([os.path.dirname(HERMES_HOOKS),
                                     os.environ.get("PATH", "/usr/bin:/bin")]),
            "HOME": str(self.home),
            "HERMES_HOME": str(self.hermes),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "LANG": "C.UTF-8",
            "OPENAI_API_KEY": "sk-dummy-for-a-local-fake",
            "OPENAI_BASE_URL": "http://127.0.0.1:%d/v1" % port,
            "OPENAI_MODEL": "fake-model",
            "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1",
            "HTTPS_PROXY": "http://127.0.0.1:9",
            "HTTP_PROXY": "http://127.0.0.1:9",
            "NO_PROXY": "127.0.0.1,localhost",
            "GUARD_STATE_DIR": str(self.root),
            "HERMES_HOOKS_AUDIT_LOG": str(self.root / "audit.jsonl"),
        }
        env.update(self.extra_env)
        return env

    def drive(self, prompt="Please tidy this project.", calls=(SHELL,)):
        log = self.root / "requests.jsonl"
        port_file = self.root / "port"
        server = subprocess.Popen(
            [PYTHON, str(HERE / "fake_model.py"), "--port-file", str(port_file), "--log",
             str(log), "--calls", json.dumps(list(calls)), "--lifetime", str(RUN_TIMEOUT + 30)],
            stdin=subprocess.DEVNULL)
        try:
            port = wait_for_port(port_file)
            argv = [QWEN, "--yolo", prompt]
            self.result = subprocess.run(
                ["timeout", "-k", "5", str(RUN_TIMEOUT)] + argv,
                cwd=self.proj, env=self.env(port), stdin=subprocess.DEVNULL,
                capture_output=True, text=True)
        finally:
            server.terminate()
            server.wait(timeout=10)
        if log.exists():
            self.requests = [json.loads(line)["body"] for line in log.read_text().splitlines()]
        return self

    def keep_survived(self):
        return (self.proj / "keep" / "precious.txt").exists()

    def marker_made(self):
        return (self.proj / MARKER).exists()

    def main_requests(self):
        return [b for b in self.requests if isinstance(b, dict)
                and any((t.get("function") or {}).get("name") == "run_shell_command"
                        for t in b.get("tools") or [])]

    def tool_results(self):
        return [flatten(m.get("content")) for body in self.main_requests()[-1:]
                for m in body.get("messages") or [] if m.get("role") == "tool"]

    def sent(self):
        return "\n".join(flatten(m.get("content")) for b in self.main_requests()
                         for m in b.get("messages") or [])

    def last_sent(self):
        """What the model was sent in its last call (every earlier message is repeated there)."""
        return "\n".join(flatten(m.get("content")) for b in self.main_requests()[-1:]
                         for m in b.get("messages") or [])

    def hook_payloads(self, name="payloads.jsonl"):
        path = self.root / name
        if not path.exists():
            return []
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]

    def why(self):
        r = self.result
        tail = lambda s: "\n".join((s or "").splitlines()[-12:])
        audit = self.root / "audit.jsonl"
        return "rc=%s\nstdout: %s\nstderr: %s\nrequests: %d, tool results: %s\naudit: %s\nroot: %s" % (
            r.returncode if r else None, tail(r.stdout if r else ""), tail(r.stderr if r else ""),
            len(self.requests), self.tool_results(),
            tail(audit.read_text()) if audit.exists() else "-", self.root)

    def cleanup(self):
        if not failures or os.environ.get("AGENT_KEEP_TMP") != "1":
            shutil.rmtree(self.root, ignore_errors=True)


def flatten(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(flatten(b.get("text")) for b in content if isinstance(b, dict))
    return ""


def hook_entry(command, matcher=None):
    entry = {"hooks": [{"type": "command", "command": command, "timeout": 60}]}
    if matcher is not None:
        entry["matcher"] = matcher
    return entry


# ---------------------------------------------------------------------------------------------
# The control: Qwen Code's own contract, by hand.

def native(run, mode):
    command = "%s %s %s %s" % (PYTHON, HERE / "native_hook.py", mode, run.payloads)
    run.settings({e: [hook_entry(command, "*" if e.startswith(("Pre", "Post")) else None)]
                  for e in EVENTS})


def native_checks():
    r = Run("native-deny")
    native(r, "deny")
    r.drive()
    report("native: a deny keeps keep/", r.keep_survived(), r.why())
    report("native: a deny's reason reaches the model in the tool result",
           any("NATIVE-BLOCK" in t for t in r.tool_results()), r.why())
    seen = {}
    for p in r.hook_payloads():
        seen.setdefault(p.get("hook_event_name"), p)
    for event in EVENTS:
        note("payload %s: %s" % (event, ", ".join(sorted(seen[event])) if event in seen
                                 else "(not fired)"))
    pre = seen.get("PreToolUse") or {}
    report("native: the shell call reaches PreToolUse as run_shell_command with tool_input.command",
           pre.get("tool_name") == "run_shell_command"
           and (pre.get("tool_input") or {}).get("command") == "rm -rf keep", json.dumps(pre))
    project = (pre.get("_env") or {})
    report("native: QWEN_PROJECT_DIR (and CLAUDE_PROJECT_DIR) name the project",
           project.get("QWEN_PROJECT_DIR") == str(r.proj)
           and project.get("CLAUDE_PROJECT_DIR") == str(r.proj), json.dumps(project))
    prompts = [p for p in r.hook_payloads() if p.get("hook_event_name") == "UserPromptSubmit"]
    report("native: UserPromptSubmit fires before every model call of the turn, only the first "
           "with submitted_prompt",
           len(prompts) >= 2 and "submitted_prompt" in prompts[0]
           and all("submitted_prompt" not in p for p in prompts[1:]), json.dumps(prompts))
    r.cleanup()

    r = Run("native-exit2")
    native(r, "exit2")
    r.drive()
    report("native: exit 2 keeps keep/ and its stderr reaches the model",
           r.keep_survived() and any("NATIVE-BLOCK" in t for t in r.tool_results()), r.why())
    r.cleanup()

    r = Run("native-rewrite")
    native(r, "rewrite")
    r.drive()
    report("native: updatedInput is ignored: the original command runs, the rewritten one not",
           not r.keep_survived() and not r.marker_made(), r.why())
    r.cleanup()

    r = Run("native-context")
    native(r, "context")
    r.drive()
    for event in ("SessionStart", "UserPromptSubmit", "PostToolUse"):
        report("native: additionalContext on %s reaches the model" % event,
               "NATIVE-CONTEXT-" + event in r.sent(), r.why())
    note("native: UserPromptSubmit's context is in the last model call %d times"
         % r.last_sent().count("NATIVE-CONTEXT-UserPromptSubmit"))
    r.cleanup()

    r = Run("native-gate")
    native(r, "gate")
    r.drive()
    report("native: decision block on Stop asks the model to keep working",
           "NATIVE-KEEP-WORKING" in r.sent(), r.why())
    r.cleanup()


# ---------------------------------------------------------------------------------------------
# Through hermes-hooks: a project HOOK.md guard, approved, wired with `install qwen --project`.

def through_checks():
    r = Run("hh-none")
    guard(r, "pre-tool-call", "none", tool="shell")
    wire(r)
    r.drive()
    report("hermes-hooks: a guard that answers nothing lets the command run (control)",
           not r.keep_survived() and r.tool_results(), r.why())
    seen = r.hook_payloads("guard-payloads.jsonl")
    report("hermes-hooks: the shell class matches Qwen's run_shell_command, and the hook is told both",
           seen and seen[0].get("tool_name") == "run_shell_command"
           and seen[0].get("tool_class") == "shell",
           json.dumps(seen[:1]))
    r.cleanup()

    for mode, how in (("block-json", "decision block"), ("block-exit2", "exit 2 + stderr")):
        r = Run("hh-" + mode)
        guard(r, "pre-tool-call", mode, tool="shell")
        wire(r)
        r.drive()
        report("hermes-hooks: a guard's block (%s) keeps keep/" % how, r.keep_survived(), r.why())
        report("hermes-hooks: a guard's block (%s) reason reaches the model" % how,
               any("GUARD-BLOCK" in t for t in r.tool_results()), r.why())
        r.cleanup()

    r = Run("hh-rewrite")
    guard(r, "pre-tool-call", "rewrite", tool="shell")
    wire(r)
    r.drive()
    report("hermes-hooks: a guard's rewrite is a deny: neither the original command nor the "
           "rewritten one runs", r.keep_survived() and not r.marker_made(), r.why())
    report("hermes-hooks: the model is told the rewrite cannot be applied",
           any("cannot apply a rewrite" in t for t in r.tool_results()), r.why())
    r.cleanup()

    r = Run("hh-context")
    guard(r, "pre-session", "context-json", name="session-context")
    guard(r, "pre-agent-turn", "context-json", name="prompt-context")
    guard(r, "post-tool-call", "context-json", tool="shell", name="after-context")
    wire(r)
    r.drive()
    for event, where in (("pre-session", "SessionStart"), ("pre-agent-turn", "UserPromptSubmit"),
                         ("post-tool-call", "PostToolUse")):
        report("hermes-hooks: a guard's context on %s reaches the model" % where,
               "GUARD-CONTEXT-" + event in r.sent(), r.why())
    report("hermes-hooks: a pre-agent-turn guard's context is sent once per turn, not once per "
           "model call", r.last_sent().count("GUARD-CONTEXT-pre-agent-turn") == 1, r.why())
    r.cleanup()

    r = Run("hh-session-block")
    guard(r, "pre-session", "block-always", name="no-session")
    wire(r)
    r.drive()
    report("hermes-hooks: a block at session start (which nothing refuses) is told to the model",
           "GUARD-BLOCK" in r.sent(), r.why())
    r.cleanup()

    r = Run("hh-gate")
    guard(r, "pre-agent-turn-stop", "gate")
    wire(r)
    r.drive()
    report("hermes-hooks: a guard's stop gate asks the model to keep working, once",
           "GUARD-KEEP-WORKING" in r.sent() and r.result.returncode == 0, r.why())
    r.cleanup()

    r = Run("hh-unapproved")
    guard(r, "pre-tool-call", "block-json", tool="shell")
    wire(r, approve=False)
    r.drive()
    report("hermes-hooks: an unapproved guard does not run (consent): the command runs",
           not r.keep_survived() and not r.hook_payloads("guard-payloads.jsonl"), r.why())
    r.cleanup()

    r = Run("hh-unapproved-fail-closed")
    guard(r, "pre-tool-call", "none", tool="shell", extra="fail_closed: true\n")
    wire(r, approve=False)
    r.drive()
    report("hermes-hooks: an unapproved fail_closed guard blocks the call, and the model is told why",
           r.keep_survived() and any("not approved" in t for t in r.tool_results()), r.why())
    r.cleanup()

    r = Run("hh-broken-closed")
    guard(r, "pre-tool-call", "block-json", tool="shell")
    wire(r)
    (r.proj / ".agents" / "hooks" / "keep-guard" / "HOOK.md").write_text("---\nname: [unclosed\n---\n")
    r.extra_env["HERMES_HOOKS_FAIL_CLOSED"] = "1"
    r.drive()
    report("hermes-hooks: failing closed, a guard whose HOOK.md cannot be read blocks the call",
           r.keep_survived(), r.why())
    r.cleanup()


def ask_checks():
    r = Run("native-ask")
    native(r, "ask")
    r.drive()
    results = r.tool_results()
    note("native ask (permissionDecision ask): keep %s, the model read: %s" % (
        "survived" if r.keep_survived() else "was deleted",
        json.dumps(results[0] if results else "(no tool result)")))
    r.cleanup()

    r = Run("hh-ask")
    claude_like.ask_check(r, "Qwen Code", guard, wire)
    r.cleanup()


def main():
    started = time.monotonic()
    only = os.environ.get("AGENT_CHECKS")
    if only in ("self", "missing"):
        # The self-protection and missing-program checks run in Claude Code and Codex only.
        print("qwen: skipped: no %s checks for this agent" % only, file=sys.stderr)
        return 0
    if only not in ("ask", "rules"):
        native_checks()
        through_checks()
    if only != "ask":
        claude_like.rules_checks(HERMES_HOOKS, lambda: Run("hh-rules"), "qwen",
                                 lambda command: {**SHELL, "arguments": {"command": command}})
    if only != "rules":
        ask_checks()
    note("qwen: %d checks failed, %.0fs" % (len(failures), time.monotonic() - started))
    return 1 if failures else 0



def guard(run, trigger, mode, tool=None, name="keep-guard", extra=""):
    claude_like.guard(run, "Qwen Code", trigger, mode, tool=tool, name=name, extra=extra)


def wire(run, approve=True):
    claude_like.wire(HERMES_HOOKS, run, "qwen", approve=approve)


def hermes_hooks(run, *args):
    return claude_like.hermes_hooks(HERMES_HOOKS, run, *args)


if __name__ == "__main__":
    sys.exit(main())
