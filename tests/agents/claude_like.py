"""What the harnesses of agents that speak Claude Code's hook contract (Factory Droid, Qwen Code)
share: reporting checks, waiting for the fake model's port, and writing and wiring the project
guard (Claude Code's harness guard, ../claude-code/guard_hook.py) through hermes-hooks.

Each harness keeps its own Run (how its agent is started and read); the helpers here take a run
with `proj` and `env(port)`.
"""

import json
import subprocess
import time
from pathlib import Path

import rules_pack

GUARD_HOOK = Path(__file__).resolve().parent / "claude-code" / "guard_hook.py"

# The names of the checks that failed, in order.
failures = []


def report(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name, flush=True)
    if not ok:
        failures.append(name)
        for line in str(detail).splitlines()[:40]:
            print("       " + line, flush=True)


def note(text):
    print("note " + text, flush=True)


def wait_for_port(port_file):
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if port_file.exists():
            return int(port_file.read_text())
        time.sleep(0.05)
    raise RuntimeError("the fake model server did not start")


def hermes_hooks(binary, run, *args):
    return subprocess.run([binary] + list(args), cwd=run.proj, env=run.env(9),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)


def guard(run, title, trigger, mode, tool=None, name="keep-guard", extra=""):
    """A project HOOK.md guard for `trigger` answering as guard_hook.py's `mode` does."""
    folder = run.proj / ".agents" / "hooks" / name
    (folder / "scripts").mkdir(parents=True)
    matcher = "matcher:\n  tool: %s\n" % tool if tool else ""
    (folder / "HOOK.md").write_text(
        "---\nname: %s\ndescription: A guard the harness checks %s with.\n"
        "trigger: %s\n%s%s---\nFor the harness.\n" % (name, title, trigger, matcher, extra))
    script = folder / "scripts" / "run"
    script.write_text(GUARD_HOOK.read_text().replace("@MODE@", mode))
    script.chmod(0o755)


def wire(binary, run, agent, approve=True):
    """Approves the project's hooks (unless not asked to) and wires `agent` with `install`."""
    if approve:
        approved = hermes_hooks(binary, run, "approve", "--yes", "--project", str(run.proj))
        if approved.returncode != 0:
            raise RuntimeError("approve failed: %s%s" % (approved.stdout, approved.stderr))
    installed = hermes_hooks(binary, run, "install", agent, "--project", str(run.proj))
    if installed.returncode != 0:
        raise RuntimeError("install failed: %s%s" % (installed.stdout, installed.stderr))


def ask_check(run, title, guard_with, wire_with):
    """A guard answering `decision: ask` on the shell call: `title` cannot ask a person, so
    hermes-hooks blocks the call and says why. The command must not run, and the model is told
    that a person must approve it. Notes what the model read."""
    guard_with(run, "pre-tool-call", "ask", tool="shell")
    wire_with(run)
    run.drive()
    results = run.tool_results()
    report("hermes-hooks: a guard's ask (decision ask, a block here) does not run the command",
           run.keep_survived(), run.why())
    report("hermes-hooks: a guard's ask tells the model that a person must approve the call, "
           "which %s cannot ask for" % title,
           any("GUARD-ASK" in t and "a person must approve" in t and title in t
               for t in results), run.why())
    note("ask: keep %s, the model read: %s" % (
        "survived" if run.keep_survived() else "was deleted",
        json.dumps(results[0] if results else "(no tool result)")))


def rules_checks(binary, make_run, agent, shell_call):
    """The shipped destructive pack (`new --rules destructive`, `approve --yes`), no script hook,
    `agent` wired by `install`: the model asks the shell (`shell_call(command)`, the call as the
    fake model sends it) for `rm -rf` of a folder outside the project; first without the pack
    (the control: the folder goes), then with it. `make_run()` gives a fresh run."""
    for with_pack in (False, True):
        run = make_run()
        outside = rules_pack.Outside()
        try:
            said = rules_pack.install(lambda *args: hermes_hooks(binary, run, *args),
                                      run.hermes) if with_pack else None
            wire(binary, run, agent, approve=False)
            run.drive(calls=(shell_call(outside.command),))
            results = run.tool_results()
            rules_pack.report_run(
                report, with_pack, outside.survived(), results, run.why(),
                lambda: (any(said in t for t in results), said))
        finally:
            outside.cleanup()
            run.cleanup()
