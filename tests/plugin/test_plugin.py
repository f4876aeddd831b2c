"""The Hermes plugin, driven without Hermes: its __init__.py is loaded with a fake `ctx` that
records what it registers, and fed events the way Hermes calls them.

Usage: python3 test_plugin.py <plugin folder>   (HOME and HERMES_HOME: a scratch home whose
hooks the tests write; the folder is what `hermes-hooks install hermes` wrote)
Exit 0 when every test passes; each failure is printed.
"""

import importlib.util
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
import traceback

PLUGIN = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else ""
HOME = os.environ.get("HOME", "")
USER_HOOKS = os.path.join(HOME, ".config", "agents", "hooks")
# Generous: a test fails on a hang, never on a slow machine.
PATIENCE = 60.0


class FakeCtx:
    def __init__(self):
        self.hooks = {}
        self.middleware = {}

    def register_hook(self, name, callback):
        self.hooks.setdefault(name, []).append(callback)

    def register_middleware(self, kind, callback):
        self.middleware.setdefault(kind, []).append(callback)


class Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


def load(path=None, name="hermes_hooks_plugin"):
    spec = importlib.util.spec_from_file_location(name, path or os.path.join(PLUGIN, "__init__.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ctx = FakeCtx()
    module.register(ctx)
    return module, ctx


def hook(name, trigger, body, extra=""):
    folder = os.path.join(USER_HOOKS, name)
    os.makedirs(os.path.join(folder, "scripts"), exist_ok=True)
    with open(os.path.join(folder, "HOOK.md"), "w") as f:
        f.write("---\nname: %s\ndescription: d\ntrigger: %s\n%s---\n" % (name, trigger, extra))
    entry = os.path.join(folder, "scripts", "run")
    with open(entry, "w") as f:
        f.write("#!/bin/sh\n" + textwrap.dedent(body))
    os.chmod(entry, 0o755)


def write_hooks():
    # A config hook that blocks every call: Hermes runs it, never the plugin.
    home = os.environ["HERMES_HOME"]
    guard = os.path.join(home, "config-guard.sh")
    with open(guard, "w") as f:
        f.write("#!/bin/sh\ncat >/dev/null\necho '{\"action\": \"block\", \"message\": \"config hook ran\"}'\n")
    os.chmod(guard, 0o755)
    with open(os.path.join(home, "config.yaml"), "w") as f:
        f.write("hooks:\n  pre_tool_call:\n    - command: %s\n" % guard)
    hook(
        "guard",
        "pre-tool-call",
        """\
        input=$(cat)
        case "$input" in
          *'rm -rf'*) echo '{"decision": "block", "reason": "no rm -rf here"}' ;;
          *'please rewrite'*) echo '{"decision": "allow", "tool_input": {"command": "echo rewritten"}}' ;;
        esac
        """,
        "matcher:\n  tool: terminal\n",
    )
    hook(
        "slow",
        "pre-tool-call",
        """\
        cat >/dev/null
        while [ ! -e "$HOME/release" ]; do sleep 0.05; done
        """,
        "matcher:\n  tool: slow_tool\ntimeout: 600000\n",
    )
    hook("context", "pre-agent-turn", "cat >/dev/null\necho '{\"context\": \"remember the tests\"}'\n")
    hook("gate", "pre-agent-turn-stop", "cat >/dev/null\necho '{\"decision\": \"continue\", \"reason\": \"run the tests first\"}'\n")
    hook(
        "note",
        "post-tool-call",
        "cat >/dev/null\necho '{\"decision\": \"block\", \"reason\": \"the output was truncated\"}'\n",
        "matcher:\n  tool: read_file\n",
    )
    hook("cwd", "pre-tool-call", 'cat > "$HOME/cwd-payload.json"\n', "matcher:\n  tool: where_tool\n")


def tool_call(ctx, args, tool="terminal", call="c1", session="s1"):
    """What Hermes does: the tool_request middleware, then pre_tool_call with the result."""
    final = dict(args)
    for mw in ctx.middleware.get("tool_request", []):
        out = mw(tool_name=tool, args=dict(final), original_args=dict(args), task_id="t", session_id=session,
                 tool_call_id=call, turn_id="", api_request_id="",
                 telemetry_schema_version="x", middleware_schema_version="y")
        if isinstance(out, dict) and isinstance(out.get("args"), dict):
            final = out["args"]
    blocks = [cb(tool_name=tool, args=final, task_id="t", session_id=session, tool_call_id=call,
                 turn_id="", api_request_id="", middleware_trace=[]) for cb in ctx.hooks["pre_tool_call"]]
    blocks = [b for b in blocks if b]
    return final, blocks


# -- the tests ----------------------------------------------------------------------------------


def test_every_event_with_an_agent_hooks_counterpart_is_registered(module, ctx):
    wanted = {"pre_tool_call", "post_tool_call", "pre_llm_call", "post_llm_call", "pre_verify",
              "on_session_start", "on_session_end", "subagent_start", "subagent_stop",
              "transform_tool_result"}
    assert set(ctx.hooks) == wanted, sorted(ctx.hooks)
    assert all(len(v) == 1 for v in ctx.hooks.values()), ctx.hooks
    assert list(ctx.middleware) == ["tool_request"], ctx.middleware


def test_a_rewrite_becomes_the_calls_arguments_and_the_config_hooks_are_left_to_hermes(module, ctx):
    final, blocks = tool_call(ctx, {"command": "please rewrite"}, call="rw")
    assert final == {"command": "echo rewritten"}, final
    assert blocks == [], "the config hook that blocks everything did not run: %r" % blocks


def test_a_block_decided_in_the_middleware_still_blocks(module, ctx):
    final, blocks = tool_call(ctx, {"command": "rm -rf build"}, call="bl")
    assert final == {"command": "rm -rf build"}, final
    assert blocks == [{"action": "block", "message": "no rm -rf here"}], blocks


def test_a_call_that_skipped_the_middleware_is_still_checked(module, ctx):
    cb = ctx.hooks["pre_tool_call"][0]
    out = cb(tool_name="terminal", args={"command": "rm -rf /"}, session_id="s", tool_call_id="direct")
    assert out == {"action": "block", "message": "no rm -rf here"}, out


def test_context_keep_working_and_a_post_tool_call_note_reach_hermes(module, ctx):
    out = ctx.hooks["pre_llm_call"][0](session_id="s1", user_message="hi", conversation_history=[],
                                       is_first_turn=True, model="m", platform="cli")
    assert out == {"context": "remember the tests"}, out
    out = ctx.hooks["pre_verify"][0](session_id="s1", platform="cli", model="m", coding=True, attempt=0,
                                     final_response="done", changed_paths=["a.py"])
    assert out == {"action": "continue", "message": "run the tests first"}, out
    kw = dict(tool_name="read_file", args={"path": "x"}, session_id="s1", tool_call_id="r1", task_id="t")
    assert ctx.hooks["post_tool_call"][0](result='{"content": "..."}', status="ok", **kw) is None
    out = ctx.hooks["transform_tool_result"][0](result='{"content": "..."}', **kw)
    assert out == '{"content": "..."}\n\nthe output was truncated', out
    again = ctx.hooks["transform_tool_result"][0](result='{"content": "..."}', **kw)
    assert again is None, "a note is given once"


def test_the_session_working_directory_is_the_payloads_cwd(module, ctx):
    project = tempfile.mkdtemp(prefix="project-")
    os.environ["TERMINAL_CWD"] = project
    try:
        tool_call(ctx, {"x": 1}, tool="where_tool", call="cwd")
    finally:
        del os.environ["TERMINAL_CWD"]
    with open(os.path.join(HOME, "cwd-payload.json")) as f:
        payload = json.load(f)
    # The Agent Hooks payload names the session's directory `work_dir`.
    assert payload.get("work_dir") == project, payload


def test_one_slow_hook_does_not_hold_up_seven_other_calls(module, ctx):
    release = os.path.join(HOME, "release")
    results = {}

    def call(i):
        tool = "slow_tool" if i == 0 else "terminal"
        results[i] = tool_call(ctx, {"command": "ls %d" % i}, tool=tool, call="p%d" % i)

    threads = [threading.Thread(target=call, args=(i,), daemon=True) for i in range(8)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + PATIENCE
    for t in threads[1:]:
        t.join(max(0.0, deadline - time.monotonic()))
    try:
        done = sorted(i for i in range(1, 8) if i in results)
        assert done == list(range(1, 8)), "answered while the slow hook ran: %r" % done
        assert 0 not in results, "the slow hook is still running"
        servers = [s for s in module._plugin.pool.all if isinstance(s, module._Server)]
        assert len(servers) <= module.POOL_SIZE, len(servers)
    finally:
        open(release, "w").close()
    threads[0].join(PATIENCE)
    assert 0 in results, "the slow call ended once released"


def run_child(code, env=None, wait=True):
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             env=env or os.environ.copy())
    if not wait:
        return child
    out, err = child.communicate(timeout=PATIENCE)
    return child.returncode, out.decode(), err.decode()


CHILD = """
import importlib.util, json, logging, os, sys, time
logging.basicConfig(level=logging.WARNING, format="LOG %(message)s")
spec = importlib.util.spec_from_file_location("p", sys.argv[0] if False else {path!r})
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
class Ctx:
    def __init__(self): self.h = {{}}; self.m = {{}}
    def register_hook(self, n, cb): self.h[n] = cb
    def register_middleware(self, k, cb): self.m[k] = cb
ctx = Ctx(); m.register(ctx)
kw = dict(tool_name="terminal", args={{"command": "ls"}}, session_id="s", tool_call_id="k", task_id="t")
mw = ctx.m["tool_request"](original_args={{"command": "ls"}}, **kw)
print(json.dumps({{"mw": mw, "pre": ctx.h["pre_tool_call"](**kw),
                  "pre2": ctx.h["pre_tool_call"](**dict(kw, tool_call_id="k2")),
                  "pids": [s.proc.pid for s in m._plugin.pool.all if isinstance(s, m._Server)]}}), flush=True)
{after}
"""


def without_binary():
    """A copy of the plugin whose installed path is gone, and an environment without the binary."""
    with open(os.path.join(PLUGIN, "__init__.py")) as f:
        text = f.read()
    folder = tempfile.mkdtemp(prefix="plugin-")
    path = os.path.join(folder, "__init__.py")
    with open(path, "w") as f:
        start = text.index("INSTALLED_BINARY = ")
        end = text.index("\n", start)
        f.write(text[:start] + 'INSTALLED_BINARY = "/nonexistent/hermes-hooks"' + text[end:])
    env = os.environ.copy()
    env.pop("HERMES_HOOKS_BIN", None)
    env["PATH"] = "/nonexistent"
    return path, env


def test_a_missing_binary_fails_open_saying_so_once(module, ctx):
    path, env = without_binary()
    code, out, err = run_child(CHILD.format(path=path, after=""), env)
    assert code == 0, err
    answer = json.loads(out.strip().splitlines()[-1])
    assert answer["mw"] is None and answer["pre"] is None and answer["pre2"] is None, answer
    said = [line for line in err.splitlines() if line.startswith("LOG ") and "not installed" in line]
    assert len(said) == 1, err


def test_a_missing_binary_blocks_tool_calls_when_failing_closed(module, ctx):
    path, env = without_binary()
    env["HERMES_HOOKS_FAIL_CLOSED"] = "1"
    code, out, err = run_child(CHILD.format(path=path, after=""), env)
    assert code == 0, err
    answer = json.loads(out.strip().splitlines()[-1])
    assert answer["pre"]["action"] == "block", answer
    assert answer["pre2"]["action"] == "block", answer


def gone(pid):
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        # A zombie is gone too: it no longer runs.
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().split(") ", 1)[1].startswith("Z"):
                    return True
        except (OSError, IndexError):
            return True
        time.sleep(0.05)
    return False


def test_no_server_is_left_after_the_interpreter_exits(module, ctx):
    code, out, err = run_child(CHILD.format(path=os.path.join(PLUGIN, "__init__.py"), after=""))
    assert code == 0, err
    pids = json.loads(out.strip().splitlines()[-1])["pids"]
    assert pids, "a server was started"
    for pid in pids:
        assert gone(pid), "serve %d outlived the interpreter" % pid


def test_no_server_is_left_after_the_interpreter_is_killed(module, ctx):
    child = run_child(CHILD.format(path=os.path.join(PLUGIN, "__init__.py"), after="time.sleep(600)"),
                      wait=False)
    line = child.stdout.readline()
    pids = json.loads(line)["pids"]
    assert pids, child.stderr.read()
    for pid in pids:
        os.kill(pid, 0)
    child.send_signal(signal.SIGKILL)
    child.wait(PATIENCE)
    for pid in pids:
        assert gone(pid), "serve %d outlived the killed interpreter" % pid


def main():
    write_hooks()
    logging.basicConfig(level=logging.WARNING)
    module, ctx = load()
    tests = [(name, fn) for name, fn in globals().items() if name.startswith("test_")]
    wanted = sys.argv[2:]
    failed = 0
    for name, fn in tests:
        if wanted and not any(w in name for w in wanted):
            continue
        try:
            fn(module, ctx)
            print("ok     %s" % name)
        except Exception:
            failed += 1
            print("FAILED %s\n%s" % (name, traceback.format_exc()))
    module._plugin.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
