"""What the harnesses of the agents that take plugins instead of command hooks (OpenCode, Kilo
Code, Pi) share: each agent is driven headless against plugin_fake_model.py (OpenAI's chat
completions, streamed) with the shipped plugin module written by `hermes-hooks install <agent>`
into the agent's plugin folder under the run's HOME, and every check is run the same way; an agent's harness.py gives only how its agent is configured and
started (a Driver).

    <agent>/harness.py AGENT_PROGRAM HERMES_HOOKS

The checks, each in its own run (a scratch HOME, project folder and model server):
- native: the agent's own plugin (or extension) throws on `rm -rf`: keep/ stays and the model
  reads the message. The control: the harness sees what a plugin does.
- rules: the destructive pack (`new --rules destructive`, `approve --yes`): without it `rm -rf
  <outside>` runs (the control); with it the folder stays and the rule's message reaches the
  model; a hostile model's escapes, `bash -lc 'rm -rf <outside>'` and `cd <outside>/.. && rm -rf
  <name>`, are blocked the same way.
- rewrite: an approved HOOK.md hook rewrites `rm -rf keep` to `touch rewritten.marker`: the
  rewritten command runs, the original not. consent: the same hook unapproved does nothing.
- context: HOOK.md hooks on pre-agent-turn (chat.message, before_agent_start) and on
  post-tool-call: their text reaches the model.
- fail-closed: a HOOK.md hook that kills its `serve` in the middle of the call. With the
  destructive pack's fail_closed rules approved, the module blocks the call it got no answer
  for, tells the model so, and the next call goes to a new server; without them (the control) the
  call goes on, and the agent's stderr says so. Then the module installed by a copy of the
  binary that is then removed, with HERMES_HOOKS_FAIL_CLOSED=1: the call is blocked.

Prints one `ok`/`FAIL` line per check (`note` lines say what was observed without judging it)
and exits 1 when a check failed.
"""

import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from claude_like import failures, note, report, wait_for_port  # noqa: E402
import claude_like  # noqa: E402
import rules_pack  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FAKE_MODEL = HERE / "plugin_fake_model.py"
PYTHON = sys.executable
RUN_TIMEOUT = int(os.environ.get("AGENT_RUN_TIMEOUT", "120"))
MARKER = "rewritten.marker"
AFTER = "after.marker"

def path_without(program_name):
    """The caller's PATH without a folder that holds `program_name`: the module must find
    hermes-hooks where it was placed, never on PATH."""
    kept = [d for d in os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
            if d and not os.access(os.path.join(d, program_name), os.X_OK)]
    return os.pathsep.join(kept)


def flatten(content):
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(flatten(b.get("text")) for b in content if isinstance(b, dict))
    return ""


class Run:
    """One agent run: a scratch HOME, a project with keep/, a model server, the agent's result."""

    def __init__(self, driver, hermes_hooks, label):
        self.driver = driver
        self.binary = hermes_hooks
        self.label = label
        self.root = Path(tempfile.mkdtemp(prefix="%s-agent-" % driver.name))
        self.home = self.root / "home"
        self.hermes = self.root / "hermes"
        self.proj = self.root / "proj"
        for d in (self.home, self.hermes, self.proj / "keep"):
            d.mkdir(parents=True)
        (self.proj / "keep" / "precious.txt").write_text("keep me\n")
        self.requests = []
        self.result = None
        self.extra_env = {}

    def env(self, port):
        env = {
            "PATH": path_without("hermes-hooks"),
            "HOME": str(self.home),
            "HERMES_HOME": str(self.hermes),
            "XDG_CONFIG_HOME": str(self.home / ".config"),
            "XDG_DATA_HOME": str(self.home / ".local" / "share"),
            "XDG_CACHE_HOME": str(self.home / ".cache"),
            "XDG_STATE_HOME": str(self.home / ".local" / "state"),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            # Anything but the fake model on 127.0.0.1 meets a closed port.
            "HTTPS_PROXY": "http://127.0.0.1:9",
            "HTTP_PROXY": "http://127.0.0.1:9",
            "NO_PROXY": "127.0.0.1,localhost",
            "GUARD_STATE_DIR": str(self.root),
            "HERMES_HOOKS_AUDIT_LOG": str(self.root / "audit.jsonl"),
        }
        env.update(self.driver.env())
        env.update(self.extra_env)
        return env

    def hermes_hooks(self, *args):
        return claude_like.hermes_hooks(self.binary, self, *args)

    def place(self, binary=None, *args):
        """`hermes-hooks install <agent>` as a person runs it: the module goes into the agent's
        plugin folder under this run's HOME, naming the binary that ran the install."""
        done = subprocess.run([binary or self.binary, "install", self.driver.name, *args],
                              cwd=self.proj, env=self.env(0), capture_output=True, text=True,
                              timeout=120)
        if done.returncode != 0:
            raise RuntimeError("install failed: %s%s" % (done.stdout, done.stderr))

    def approve(self):
        done = self.hermes_hooks("approve", "--yes", "--project", str(self.proj))
        if done.returncode != 0:
            raise RuntimeError("approve failed: %s%s" % (done.stdout, done.stderr))

    def drive(self, commands=("rm -rf keep",), prompt="Please tidy this project."):
        log = self.root / "requests.jsonl"
        port_file = self.root / "port"
        shell = self.driver.shell_tool
        calls = [{"name": shell, "arguments": self.driver.shell_args(c)} for c in commands]
        server = subprocess.Popen(
            [PYTHON, str(FAKE_MODEL), "--port-file", str(port_file), "--log", str(log),
             "--shell", shell, "--calls", json.dumps(calls),
             "--finish", json.dumps(self.driver.finish), "--lifetime",
             str(RUN_TIMEOUT + 30)], stdin=subprocess.DEVNULL)
        try:
            port = wait_for_port(port_file)
            self.driver.configure(self, port)
            self.result = subprocess.run(
                ["timeout"] + self.driver.timeout_signal + [str(RUN_TIMEOUT)]
                + self.driver.argv(prompt),
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

    def made(self, name):
        return (self.proj / name).exists()

    def main_requests(self):
        return [b for b in self.requests if isinstance(b, dict)
                and any((t.get("function") or {}).get("name") == self.driver.shell_tool
                        for t in b.get("tools") or [])]

    def tool_results(self):
        return [flatten(m.get("content")) for body in self.main_requests()[-1:]
                for m in body.get("messages") or [] if m.get("role") == "tool"]

    def sent(self):
        return "\n".join(flatten(m.get("content")) for b in self.main_requests()
                         for m in b.get("messages") or [])

    def blocked_with(self, said):
        """Whether the call met a block whose message holds `said`, and the message went where the
        agent puts it: into the tool result the model reads; in Cline, whose cancel ends the
        task and shows the message nowhere, into the answer Cline got (as the audit log keeps
        it), with the model not asked again."""
        if not self.driver.ends_on_block:
            return any(said in t for t in self.tool_results())
        return self.asked_once() and any(said in m for m in self.audited_blocks())

    def went_on(self):
        """Whether the agent got past the call: the model read its result, or (Cline) a block
        ended the task there."""
        return bool(self.tool_results()) or (self.driver.ends_on_block and bool(self.audited_blocks()))

    def asked_once(self):
        """The model was asked once, for the call, and never again: the task ended at it."""
        return len(self.main_requests()) == 1

    def audited_blocks(self):
        """The messages of the blocks the audit log kept for this agent's tool calls."""
        audit = self.root / "audit.jsonl"
        lines = audit.read_text().splitlines() if audit.exists() else []
        records = [json.loads(line) for line in lines if line.strip()]
        return [str((r.get("directive") or {}).get("message", "")) for r in records
                if r.get("agent") == self.driver.name and r.get("event") == "pre_tool_call"
                and (r.get("directive") or {}).get("action") == "block"]

    def guard_payloads(self):
        path = self.root / "guard-payloads.jsonl"
        if not path.exists():
            return []
        return [line for line in path.read_text().splitlines() if line.strip()]

    def stderr(self):
        return self.result.stderr if self.result else ""

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


def guard(run, trigger, mode, tool=None, name="keep-guard", extra=""):
    """A project HOOK.md hook answering as ../claude-code/guard_hook.py's `mode` does."""
    claude_like.guard(run, run.driver.title, trigger, mode, tool=tool, name=name, extra=extra)


# A HOOK.md hook that ends the hermes-hooks process running it (its parent: the module's
# `serve`, or the `run` of Cline's script) when the call is an `rm -rf`, after leaving a mark:
# the caller gets no answer for a call already sent.
KILLER = """#!/bin/sh
payload=$(cat)
case "$payload" in
  *"rm -rf"*) : > "$GUARD_STATE_DIR/runner-killed"; kill -9 "$PPID" ;;
esac
exit 0
"""


def killer(run):
    folder = run.proj / ".agents" / "hooks" / "serve-killer"
    (folder / "scripts").mkdir(parents=True)
    (folder / "HOOK.md").write_text(
        "---\nname: serve-killer\ndescription: Ends its server in the middle of a call.\n"
        "trigger: pre-tool-call\nmatcher:\n  tool: shell\n---\nFor the harness.\n")
    script = folder / "scripts" / "run"
    script.write_text(KILLER)
    script.chmod(0o755)


# ---------------------------------------------------------------------------------------------

def native_checks(driver, binary):
    r = Run(driver, binary, "native")
    driver.native_plugin(r)
    r.drive()
    report("native: the agent's own %s blocks `rm -rf keep` (control): keep/ stays"
           % driver.plugin_word, r.keep_survived(), r.why())
    if driver.ends_on_block:
        report("native: its cancel ends the task: the model is not asked again",
               r.asked_once(), r.why())
    else:
        report("native: its message reaches the model in the tool result",
               any("NATIVE-BLOCK" in t for t in r.tool_results()), r.why())
    r.cleanup()


def rules_checks(driver, binary):
    for with_pack in (False, True):
        r = Run(driver, binary, "rules")
        outside = rules_pack.Outside()
        try:
            said = rules_pack.install(r.hermes_hooks, r.hermes) if with_pack else None
            r.place()
            r.drive(commands=(outside.command,))
            rules_pack.report_run(report, with_pack, outside.survived(), r.went_on(), r.why(),
                                  lambda: (r.blocked_with(said), said), told=driver.told)
        finally:
            outside.cleanup()
            r.cleanup()


def hostile_checks(driver, binary):
    """A hostile model's ways around the pack: the delete as a shell's script, and a `cd` to the
    folder's parent first, so that the delete names no path outside the project."""
    for form in ("script", "cd"):
        r = Run(driver, binary, "hostile-" + form)
        outside = rules_pack.Outside(rules_pack.SCRIPT if form == "script" else rules_pack.PLAIN)
        try:
            said = rules_pack.install(r.hermes_hooks, r.hermes)
            r.place()
            if form == "script":
                command, label = outside.command, rules_pack.SCRIPT
            else:
                command = "cd %s/.. && rm -rf %s" % (shlex.quote(str(outside.folder)),
                                                     shlex.quote(outside.folder.name))
                label = "cd <outside>/.. && rm -rf <name>"
            r.drive(commands=(command,))
            report("hostile: `%s` is blocked by the destructive pack: the folder stays" % label,
                   outside.survived() and r.went_on(), r.why())
            report("hostile: the rule's message for `%s` %s" % (label, driver.told),
                   r.blocked_with(said), "wanted: %s\n%s" % (said, r.why()))
        finally:
            outside.cleanup()
            r.cleanup()


def hook_checks(driver, binary):
    r = Run(driver, binary, "rewrite")
    guard(r, "pre-tool-call", "rewrite", tool="shell")
    r.approve()
    r.place()
    r.drive()
    report("rewrite: an approved HOOK.md rewrite runs the rewritten command, not `rm -rf keep`",
           r.keep_survived() and r.made(MARKER), r.why())
    r.cleanup()

    r = Run(driver, binary, "consent")
    guard(r, "pre-tool-call", "rewrite", tool="shell")
    r.place()
    r.drive()
    report("consent: the same hook unapproved does nothing: `rm -rf keep` runs, the hook never ran",
           not r.keep_survived() and not r.made(MARKER) and not r.guard_payloads(), r.why())
    r.cleanup()

    r = Run(driver, binary, "context")
    if driver.prompt_hook:
        guard(r, "pre-agent-turn", "context-json", name="prompt-context")
    guard(r, "post-tool-call", "context-json", tool="shell", name="after-context")
    r.approve()
    r.place()
    r.drive(commands=("echo hello",))
    if driver.prompt_hook:
        report("context: a pre-agent-turn hook's context (%s) reaches the model"
               % driver.prompt_hook, "GUARD-CONTEXT-pre-agent-turn" in r.sent(), r.why())
    else:
        note("context: %s waits for no hook before a turn: no pre-agent-turn context"
             % driver.title)
    if driver.context_after_result:
        report("context: a post-tool-call hook's context reaches the model after the tool result",
               "GUARD-CONTEXT-post-tool-call" in r.sent(), r.why())
    else:
        report("context: a post-tool-call hook's context reaches the model with the tool result",
               any("GUARD-CONTEXT-post-tool-call" in t for t in r.tool_results()), r.why())
    r.cleanup()


def fail_closed_checks(driver, binary):
    if driver.ends_on_block:
        return script_fail_closed_checks(driver, binary)
    r = Run(driver, binary, "killed-open")
    killer(r)
    r.approve()
    r.place()
    r.drive(commands=("rm -rf keep", "touch %s" % AFTER))
    report("fail-closed: with no fail_closed hook, a server killed in the middle of the call lets "
           "it go (control)", not r.keep_survived(), r.why())
    report("fail-closed: the agent's stderr says once that the hooks could not check it",
           r.stderr().count("a hermes-hooks server ended") == 1, r.why())
    r.cleanup()

    r = Run(driver, binary, "killed-closed")
    killer(r)
    said = rules_pack.install(r.hermes_hooks, r.hermes)
    r.approve()
    r.place()
    r.drive(commands=("rm -rf keep", "touch %s" % AFTER))
    results = r.tool_results()
    report("fail-closed: with the destructive pack's fail_closed rules, a server killed in the "
           "middle of the call blocks it", r.keep_survived() and bool(results), r.why())
    report("fail-closed: the model is told the call was blocked because no hook could check it",
           any("fail_closed" in t and "server ended" in t for t in results),
           "rule message: %s\n%s" % (said, r.why()))
    report("fail-closed: the next call goes to a new server and runs", r.made(AFTER), r.why())
    r.cleanup()

    unreachable_checks(driver, binary)


# How the binary is gone in each unreachable run: `install`'s --if-missing, and whether
# HERMES_HOOKS_FAIL_CLOSED=1 is set.
UNREACHABLE = (("block", False), ("allow", False), ("allow", True))


def unreachable_checks(driver, binary):
    """The module (Cline: the scripts) installed by a copy of the binary that is then gone: with
    `install`'s default `--if-missing block` a tool call is blocked and the model told why (Cline:
    the task ends there); with `--if-missing allow` it goes on (the control), unless
    HERMES_HOOKS_FAIL_CLOSED=1."""
    for if_missing, switch in UNREACHABLE:
        r = Run(driver, binary, "unreachable")
        copy = r.root / "bin" / "hermes-hooks"
        copy.parent.mkdir()
        shutil.copy2(binary, copy)
        r.place(str(copy), *(["--if-missing", "allow"] if if_missing == "allow" else []))
        copy.unlink()
        if switch:
            r.extra_env["HERMES_HOOKS_FAIL_CLOSED"] = "1"
        r.drive()
        if driver.ends_on_block:
            stopped = r.keep_survived() and r.asked_once()
        else:
            stopped = r.keep_survived() and any("could not check" in t for t in r.tool_results())
        how = "--if-missing %s%s" % (if_missing, " and HERMES_HOOKS_FAIL_CLOSED=1" if switch else "")
        if if_missing == "allow" and not switch:
            report("fail-closed: the binary unreachable with %s: the call goes on (control)" % how,
                   not r.keep_survived(), r.why())
        else:
            report("fail-closed: the binary unreachable with %s: the call is blocked, and %s"
                   % (how, "the task ends there" if driver.ends_on_block
                      else "the model is told why"), stopped, r.why())
        r.cleanup()


def script_fail_closed_checks(driver, binary):
    """Cline's: a script per call runs `hermes-hooks run`, and an answer Cline cannot read lets
    the call go, so the script answers for a runner that ended without answering."""
    for pack in (False, True):
        r = Run(driver, binary, "killed-closed" if pack else "killed-open")
        killer(r)
        if pack:
            rules_pack.install(r.hermes_hooks, r.hermes)
        r.approve()
        r.place()
        r.drive()
        killed = (r.root / "runner-killed").exists()
        if pack:
            report("fail-closed: with the destructive pack's fail_closed rules, a runner killed in "
                   "the middle of the call stops it: keep/ stays and the task ends there",
                   killed and r.keep_survived() and r.asked_once(), r.why())
        else:
            report("fail-closed: with no fail_closed hook, a runner killed in the middle of the "
                   "call lets it go (control)", killed and not r.keep_survived(), r.why())
        r.cleanup()

    unreachable_checks(driver, binary)


def main(driver):
    binary = os.path.abspath(sys.argv[2])
    driver.program = os.path.abspath(sys.argv[1])
    started = time.monotonic()
    only = os.environ.get("AGENT_CHECKS")
    if only in ("self", "missing", "ask"):
        print("%s: skipped: no %s checks for this agent" % (driver.name, only), file=sys.stderr)
        return 0
    if only == "rules":
        rules_checks(driver, binary)
    elif only == "hostile":
        hostile_checks(driver, binary)
    else:
        native_checks(driver, binary)
        rules_checks(driver, binary)
        hook_checks(driver, binary)
        fail_closed_checks(driver, binary)
        hostile_checks(driver, binary)
    note("%s: %d checks failed, %.0fs" % (driver.name, len(failures), time.monotonic() - started))
    return 1 if failures else 0


# ---------------------------------------------------------------------------------------------
# How each agent is configured and started.

class Driver:
    """What an agent's driver says unless it says otherwise: the shell tool is `bash`, the run
    ends with the model's text, a block's message reaches the model in the tool result and the
    model goes on, and the agent ends on SIGTERM."""

    shell_tool = "bash"
    finish = None
    ends_on_block = False
    told = "reaches the model in the tool result"
    context_after_result = False
    timeout_signal = ["-k", "5"]

    def __init__(self):
        self.program = None


class OpenCodeDriver(Driver):
    """OpenCode and Kilo Code: `<program> run PROMPT` in the project, the fake provider in the
    project's opencode.json (kilo.json), the module in .opencode/plugins/ (.kilo/plugins/)."""

    plugin_word = "plugin"
    prompt_hook = "chat.message"

    def __init__(self, name, title, folder, config, schema):
        self.name, self.title, self.folder, self.config, self.schema = name, title, folder, config, schema
        self.program = None

    def plugin_folder(self, run):
        return run.proj / self.folder / "plugins"

    def shell_args(self, command):
        args = {"command": command}
        if self.name == "kilo":
            args["description"] = "Runs a command"
        return args

    def configure(self, run, port):
        # At start the agent installs its plugin package (@opencode-ai/plugin, @kilocode/plugin)
        # into each config folder unless its node_modules/ and package-lock.json say it is
        # there; offline that install only fails, after npm's retries (70 to 90 s). The module
        # needs no package: they are made to say so.
        for folder in (run.home / ".config" / self.name, run.proj / self.folder):
            (folder / "node_modules").mkdir(parents=True, exist_ok=True)
            (folder / "package-lock.json").write_text(json.dumps({"packages": {"": {
                "dependencies": {"@opencode-ai/plugin": "*", "@kilocode/plugin": "*"}}}}))
        (run.proj / self.config).write_text(json.dumps({
            "$schema": self.schema,
            "provider": {"fake": {
                "npm": "@ai-sdk/openai-compatible", "name": "Fake",
                "options": {"baseURL": "http://127.0.0.1:%d/v1" % port, "apiKey": "sk-fake"},
                "models": {"fake-model": {"name": "Fake model", "tool_call": True}}}},
            "model": "fake/fake-model", "small_model": "fake/fake-model",
            "permission": {"bash": "allow", "edit": "allow", "external_directory": "allow"},
            "autoupdate": False, "share": "disabled"}, indent=2))

    def env(self):
        return {"OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_AUTOUPDATE": "1",
                "KILO_DISABLE_MODELS_FETCH": "1", "KILO_DISABLE_AUTOUPDATE": "1"}

    def argv(self, prompt):
        return [self.program, "run", prompt]

    def native_plugin(self, run):
        folder = self.plugin_folder(run)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "native.js").write_text(
            'export default { id: "native", server: async () => ({\n'
            '  "tool.execute.before": async (call, output) => {\n'
            '    if (/rm -rf/.test(String(output.args.command))) '
            'throw new Error("NATIVE-BLOCK keep is protected");\n'
            '  },\n}) };\n')


class PiDriver(Driver):
    """Pi: `pi -p` in the project, the fake provider in ~/.pi/agent/models.json, the module in
    .pi/extensions/ (Pi reads a project's extensions from the folder it starts in only)."""

    name = "pi"
    title = "Pi"
    plugin_word = "extension"
    prompt_hook = "before_agent_start"

    def plugin_folder(self, run):
        return run.proj / ".pi" / "extensions"

    def shell_args(self, command):
        return {"command": command}

    def configure(self, run, port):
        folder = run.home / ".pi" / "agent"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "models.json").write_text(json.dumps({"providers": {"fake": {
            "baseUrl": "http://127.0.0.1:%d/v1" % port, "api": "openai-completions",
            "apiKey": "sk-fake",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "fake-model"}]}}}, indent=2))

    def env(self):
        return {"PI_OFFLINE": "1"}

    def argv(self, prompt):
        return [self.program, "-p", "--provider", "fake", "--model", "fake-model", prompt]

    def native_plugin(self, run):
        folder = self.plugin_folder(run)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "native.js").write_text(
            "export default function (pi) {\n"
            '  pi.on("tool_call", async (event) => {\n'
            '    if (/rm -rf/.test(String(event.input.command))) '
            'return { block: true, reason: "NATIVE-BLOCK keep is protected" };\n'
            "  });\n}\n")


class ClineDriver(Driver):
    """Cline: `cline --yolo PROMPT` in the project, the fake provider set with `cline auth`, the
    scripts (PreToolUse.sh, ...) in ~/.cline/hooks/. Its shell tool runs a list of commands, and
    its run ends only when the model calls `submit_and_exit`. A block is Cline's cancel, which
    ends the whole task and shows its message nowhere, so where the others' checks read the
    message in the tool result, Cline's read it in the audit log and see the model not asked
    again. No hook before a turn is waited for, so there is no pre-agent-turn context, and a
    post-tool-call hook's comes as a message after the tool result; there is no `serve`, so failing closed is the script's, for a `run` killed
    in the middle of the call."""

    name = "cline"
    title = "Cline"
    plugin_word = "hook"
    prompt_hook = None
    shell_tool = "run_commands"
    finish = {"name": "submit_and_exit",
              "arguments": {"summary": "The work asked for is done.", "verified": True}}
    ends_on_block = True
    told = ("is Cline's cancel, as the audit log keeps it, and the task ends there (Cline shows "
            "the message nowhere)")
    # Context comes as a message of its own after the tool's result.
    context_after_result = True
    # Cline does not end on SIGTERM.
    timeout_signal = ["-s", "KILL"]

    def shell_args(self, command):
        return {"commands": [command]}

    def configure(self, run, port):
        done = subprocess.run(
            [self.program, "auth", "-p", "openai-compatible", "-k", "sk-fake", "-m", "fake-model",
             "-b", "http://127.0.0.1:%d/v1" % port], cwd=run.proj, env=run.env(port),
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError("cline auth failed: %s%s" % (done.stdout, done.stderr))

    def env(self):
        return {}

    def argv(self, prompt):
        return [self.program, "--yolo", prompt]

    def native_plugin(self, run):
        folder = run.proj / ".clinerules" / "hooks"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "PreToolUse.py").write_text(
            "#!/usr/bin/env python3\n"
            "import json, sys\n"
            "call = (json.load(sys.stdin).get('tool_call') or {}).get('input') or {}\n"
            "if any('rm -rf' in c for c in call.get('commands') or []):\n"
            "    print(json.dumps({'cancel': True, 'errorMessage': 'NATIVE-BLOCK keep is protected'}))\n"
            "else:\n"
            "    print('{}')\n")
