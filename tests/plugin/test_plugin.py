"""The Hermes plugin, driven without Hermes: its __init__.py is loaded with a fake `ctx` that
records what it registers, and fed events the way Hermes calls them.

Usage: python3 test_plugin.py <plugin folder> [name filter...]   (HOME and HERMES_HOME: a
scratch home whose hooks the tests write and approve with the binary the plugin was installed
with; the folder is what `hermes-hooks install hermes` wrote)
Tests that need hooks of their own (a fail_closed guard, an unapproved hook) run the plugin in a
child interpreter with a home of its own. Exit 0 when every test passes; each failure is printed.
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
# Every variable that chooses a folder is the scratch home's, not the caller's: with the caller's
# XDG_CONFIG_HOME, say, the binary would look for the user's hooks where these tests never write.
for _name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
              "HERMES_HOOKS_AUDIT_LOG", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "PAGER"):
    os.environ.pop(_name, None)
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


def hook(name, trigger, body, extra="", hooks=None):
    folder = os.path.join(hooks or USER_HOOKS, name)
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
          *'rewrite then ask'*) echo '{"decision": "allow", "tool_input": {"command": "echo please ask"}}' ;;
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
    hook(
        "asker",
        "pre-tool-call",
        """\
        case "$(cat)" in
          *'please ask'*) echo '{"decision": "ask", "reason": "a person decides", "rule_key": "k1"}' ;;
        esac
        """,
        "matcher:\n  tool: terminal\npriority: 10\n",
    )


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


def test_an_ask_is_hermess_own_approval_prompt_where_hermes_has_one(module, ctx):
    kept, module._hermes_asks = module._hermes_asks, lambda: True
    try:
        final, blocks = tool_call(ctx, {"command": "please ask"}, call="ask1")
    finally:
        module._hermes_asks = kept
    assert final == {"command": "please ask"}, final
    assert blocks == [{"action": "approve", "message": "a person decides", "rule_key": "k1"}], blocks


def test_an_ask_with_a_rewrite_asks_about_the_rewritten_call(module, ctx):
    kept, module._hermes_asks = module._hermes_asks, lambda: True
    try:
        final, blocks = tool_call(ctx, {"command": "rewrite then ask"}, call="ask2")
    finally:
        module._hermes_asks = kept
    assert final == {"command": "echo please ask"}, final
    assert [b["action"] for b in blocks] == ["approve"], blocks


def test_an_ask_is_a_block_saying_so_where_hermes_has_no_prompt(module, ctx):
    final, blocks = tool_call(ctx, {"command": "please ask"}, call="ask3")
    assert len(blocks) == 1 and blocks[0]["action"] == "block", blocks
    assert blocks[0]["message"].startswith("a person decides; a person must approve this call"), blocks


def test_an_ask_is_a_block_where_hermes_would_approve_without_asking_anyone(module, ctx):
    # `hermes -z` and --yolo switch Hermes's approvals off: its prompt would let the call run.
    kept = module._hermes_asks, module._approvals_off
    module._hermes_asks, module._approvals_off = (lambda: True), (lambda: True)
    try:
        final, blocks = tool_call(ctx, {"command": "please ask"}, call="ask4")
    finally:
        module._hermes_asks, module._approvals_off = kept
    assert len(blocks) == 1 and blocks[0]["action"] == "block", blocks
    assert blocks[0]["message"].startswith("a person decides; a person must approve this call"), blocks


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


def plugin_copy(binary, if_missing="block"):
    """A copy of the plugin written for `binary`, as `install --if-missing IF_MISSING` writes it."""
    with open(os.path.join(PLUGIN, "__init__.py")) as f:
        text = f.read()
    for name, value in (("INSTALLED_BINARY", binary), ("IF_MISSING", if_missing)):
        start = text.index("\n%s = " % name) + 1
        end = text.index("\n", start)
        text = text[:start] + "%s = %r" % (name, value) + text[end:]
    folder = tempfile.mkdtemp(prefix="plugin-")
    path = os.path.join(folder, "__init__.py")
    with open(path, "w") as f:
        f.write(text)
    return path


def without_binary(if_missing="block"):
    """A copy of the plugin whose installed path is gone, and an environment without the binary."""
    path = plugin_copy("/nonexistent/hermes-hooks", if_missing)
    env = os.environ.copy()
    env.pop("HERMES_HOOKS_BIN", None)
    env["PATH"] = "/nonexistent"
    return path, env


def test_a_missing_binary_blocks_tool_calls_saying_so_once(module, ctx):
    path, env = without_binary()
    code, out, err = run_child(CHILD.format(path=path, after=""), env)
    assert code == 0, err
    answer = json.loads(out.strip().splitlines()[-1])
    assert answer["pre"]["action"] == "block", answer
    assert "--if-missing allow" in answer["pre"]["message"], answer
    assert answer["pre2"]["action"] == "block", answer
    said = [line for line in err.splitlines() if line.startswith("LOG ") and "not installed" in line]
    assert len(said) == 1, err


def test_a_missing_binary_installed_with_if_missing_allow_fails_open_saying_so_once(module, ctx):
    path, env = without_binary("allow")
    code, out, err = run_child(CHILD.format(path=path, after=""), env)
    assert code == 0, err
    answer = json.loads(out.strip().splitlines()[-1])
    assert answer["mw"] is None and answer["pre"] is None and answer["pre2"] is None, answer
    said = [line for line in err.splitlines() if line.startswith("LOG ") and "not installed" in line]
    assert len(said) == 1, err


def test_a_missing_binary_blocks_tool_calls_when_failing_closed(module, ctx):
    path, env = without_binary("allow")
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


# -- the plugin never raises into Hermes, and never fails open by accident -----------------------

# The binary the plugin was installed with (set in main).
BINARY = ""


def deep(levels, inner="rm -rf victim"):
    """A value nested `levels` lists deep."""
    value = inner
    for _ in range(levels):
        value = [value]
    return value


def at_depth(frames, fn):
    """fn() called `frames` Python frames deep, as Hermes calls its plugins from deep in a turn."""
    if frames <= 0:
        return fn()
    return at_depth(frames - 1, fn)


def scratch(hooks=(), approve=True):
    """A home of its own for a child interpreter: HOME, HERMES_HOME, user hooks (name, trigger,
    body, extra), approved unless told otherwise. Returns (root, env, work folder)."""
    root = tempfile.mkdtemp(prefix="scratch-")
    home, hermes, work = (os.path.join(root, d) for d in ("home", "hermes", "work"))
    for folder in (home, hermes, work):
        os.makedirs(folder)
    for name, trigger, body, extra in hooks:
        hook(name, trigger, body, extra, hooks=os.path.join(home, ".config", "agents", "hooks"))
    env = os.environ.copy()
    env.update(HOME=home, HERMES_HOME=hermes)
    for name in ("HERMES_HOOKS_FAIL_CLOSED", "TERMINAL_CWD", "HERMES_ACCEPT_HOOKS", "HERMES_HOOKS_ACCEPT"):
        env.pop(name, None)
    if approve:
        subprocess.run([BINARY, "approve", "--all", "--yes"], env=env, cwd=work, check=True,
                       stdin=subprocess.DEVNULL, capture_output=True, timeout=PATIENCE)
    return root, env, work


# What a child interpreter runs before the test's own lines: the plugin at PLUGIN_UNDER_TEST,
# registered with a fake ctx; `call` runs one tool call the way Hermes does; `said` is what the
# plugin logged.
PRELUDE = """
import importlib.util, json, logging, os, sys, time
logging.basicConfig(level=logging.WARNING, format="LOG %(message)s")
said = []
class Keep(logging.Handler):
    def emit(self, record): said.append(record.getMessage())
logging.getLogger().addHandler(Keep())
spec = importlib.util.spec_from_file_location("p", os.environ["PLUGIN_UNDER_TEST"])
m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)
class Ctx:
    def __init__(self): self.h = {}; self.m = {}
    def register_hook(self, n, cb): self.h[n] = cb
    def register_middleware(self, k, cb): self.m[k] = cb
ctx = Ctx(); m.register(ctx)
def call(args, tool="terminal", call="k", session="s"):
    kw = dict(tool_name=tool, args=args, session_id=session, tool_call_id=call, task_id="t")
    out = ctx.m["tool_request"](original_args=args, **kw)
    if isinstance(out, dict) and isinstance(out.get("args"), dict):
        kw["args"] = out["args"]
    return ctx.h["pre_tool_call"](**kw)
def deep(levels, inner="rm -rf victim"):
    value = inner
    for _ in range(levels):
        value = [value]
    return value
"""


def child(lines, env, work, plugin=None):
    """Runs PRELUDE and `lines` in a child interpreter in `work`; the last stdout line, read as
    JSON, and stderr. An exception in the child fails the test with its traceback."""
    env = dict(env, PLUGIN_UNDER_TEST=plugin or os.path.join(PLUGIN, "__init__.py"))
    done = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(lines)], env=env, cwd=work,
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=PATIENCE)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, "the child failed:\n%s%s" % (out, err)
    return json.loads(out.strip().splitlines()[-1]), err


GUARD = ("closed-guard", "pre-tool-call", "cat >/dev/null\n", "fail_closed: true\nmatcher:\n  tool: other_tool\n")


def test_json_is_written_as_json_dumps_writes_it_at_any_depth(module, ctx):
    class Odd:
        def __str__(self):
            return "odd \u00e9"

    values = [None, True, False, 0, -7, 2 ** 80, 1.5, float("nan"), float("inf"), -float("inf"), "",
              "a\"b\\c\n\u00e9\ud800\U0001f600", [], {}, (), [1, [2, [3]]], (1, "x"),
              {"b": 1, "a": [{}, []], 3: "int key", 2.5: "float", None: 0, True: 1},
              {"z": {"y": {"x": [Odd()]}}}, Odd(), deep(30)]
    for value in values:
        for sort_keys in (False, True):
            if sort_keys and isinstance(value, dict) and any(not isinstance(k, str) for k in value):
                continue
            want = json.dumps(value, sort_keys=sort_keys, default=str)
            got = module._dumps_flat(value, sort_keys)
            assert got == want, (value, got, want)
    text = module._dumps({"a": deep(100000, 1)})
    assert text == '{"a": ' + "[" * 100000 + "1" + "]" * 100000 + "}", text[:80]
    loop = []
    loop.append(loop)
    try:
        module._dumps_flat(loop, False)
    except ValueError:
        pass
    else:
        raise AssertionError("a list that contains itself was written")


def test_a_deep_argument_reaches_the_hooks_which_decide_it(module, ctx):
    # Nested as deep as serve reads, from deep in the stack as in Hermes: json.dumps cannot.
    args = {"command": "rm -rf victim", "pad": deep(990, 1)}
    final, blocks = at_depth(60, lambda: tool_call(ctx, args, call="deep-990"))
    assert blocks == [{"action": "block", "message": "no rm -rf here"}], blocks


def test_an_argument_deeper_than_the_hooks_read_fails_open_without_raising(module, ctx):
    out = tool_call(ctx, {"command": "rm -rf victim", "pad": deep(100000)}, call="deep-open")
    assert out[1] == [], out[1]


def test_an_argument_deeper_than_the_hooks_read_blocks_when_failing_closed(module, ctx):
    root, env, work = scratch()
    env["HERMES_HOOKS_FAIL_CLOSED"] = "1"
    answer, err = child("print(json.dumps(call({'command': 'ls', 'pad': deep(100000)})))", env, work)
    assert (answer or {}).get("action") == "block", (answer, err)


def test_an_argument_deeper_than_the_hooks_read_blocks_where_a_fail_closed_guard_could_apply(module, ctx):
    root, env, work = scratch([GUARD])
    answer, err = child("print(json.dumps(call({'command': 'ls', 'pad': deep(100000)})))", env, work)
    assert (answer or {}).get("action") == "block", (answer, err)
    assert "closed-guard" in answer["message"], answer


LOOP = """
args = {"command": "ls"}
args["self"] = args
print(json.dumps({"out": call(args), "said": said}))
"""


def test_a_value_json_cannot_write_fails_open_saying_so_once(module, ctx):
    root, env, work = scratch()
    answer, err = child(LOOP + "print(json.dumps({'again': call(args, call='k2'), 'said': said}))", env, work)
    assert answer["again"] is None, answer
    about = [line for line in answer["said"] if "could not be sent" in line]
    assert len(about) == 1, (answer, err)


def test_a_value_json_cannot_write_blocks_when_failing_closed(module, ctx):
    root, env, work = scratch()
    env["HERMES_HOOKS_FAIL_CLOSED"] = "1"
    answer, err = child(LOOP, env, work)
    assert (answer["out"] or {}).get("action") == "block", (answer, err)


def test_a_value_json_cannot_write_blocks_where_a_fail_closed_guard_could_apply(module, ctx):
    root, env, work = scratch([GUARD])
    answer, err = child(LOOP, env, work)
    assert (answer["out"] or {}).get("action") == "block", (answer, err)
    assert "closed-guard" in answer["out"]["message"], answer


BROKEN = """
class Broken(BaseException):
    pass
def broken(*args, **kwargs):
    raise Broken("a bug")
m._session_cwd = broken
m._plugin._take_kept = broken
out = {"pre_tool_call": call({"command": "ls"})}
for name, cb in ctx.h.items():
    if name != "pre_tool_call":
        out[name] = cb(session_id="s", tool_name="terminal", tool_call_id="k3", args={}, result="r")
out["tool_request"] = ctx.m["tool_request"](session_id="s", tool_name="t", tool_call_id="k4", args={})
print(json.dumps({"out": out, "said": said}))
"""


def test_a_bug_in_the_plugin_never_raises_into_hermes_and_fails_open_saying_so_once(module, ctx):
    root, env, work = scratch()
    answer, err = child(BROKEN, env, work)
    assert set(answer["out"]) >= {"pre_tool_call", "tool_request", "post_tool_call", "transform_tool_result",
                                  "pre_llm_call", "pre_verify", "on_session_start", "subagent_start"}, answer
    assert all(v is None for v in answer["out"].values()), answer
    about = [line for line in answer["said"] if "Broken" in line]
    assert len(about) == 1, (answer, err)


def test_a_bug_in_the_plugin_blocks_a_tool_call_a_fail_closed_guard_could_apply_to(module, ctx):
    root, env, work = scratch([GUARD])
    answer, err = child(BROKEN, env, work)
    assert (answer["out"]["pre_tool_call"] or {}).get("action") == "block", (answer, err)
    others = [k for k, v in answer["out"].items() if k != "pre_tool_call" and v is not None]
    assert others == [], answer


KILLER = "cat >/dev/null\nkill -9 $PPID\nsleep 5\n"


def test_a_server_that_dies_mid_request_blocks_a_call_a_fail_closed_guard_could_apply_to(module, ctx):
    root, env, work = scratch([("killer", "pre-tool-call", KILLER, "fail_closed: true\nmatcher:\n  tool: kill_tool\n")])
    answer, err = child("print(json.dumps({'out': call({'x': 1}, tool='kill_tool'), 'said': said}))", env, work)
    assert (answer["out"] or {}).get("action") == "block", (answer, err)
    assert "killer" in answer["out"]["message"], answer


def test_a_server_that_dies_mid_request_fails_open_without_a_guard_saying_so_once(module, ctx):
    root, env, work = scratch([("killer", "pre-tool-call", KILLER, "matcher:\n  tool: kill_tool\n")])
    answer, err = child("print(json.dumps({'out': [call({'x': 1}, tool='kill_tool', call=c) for c in 'ab'],"
                        " 'said': said}))", env, work)
    assert answer["out"] == [None, None], (answer, err)
    about = [line for line in answer["said"] if "server ended" in line]
    assert len(about) == 1, answer


def test_a_server_given_up_on_is_read_to_its_end(module, ctx):
    """A server no call waits on any more (its answer came too late, say) may still write an
    answer larger than the pipe holds: what it writes is read and dropped, so it ends instead
    of waiting to write for ever."""
    folder = tempfile.mkdtemp()
    late = os.path.join(folder, "late-serve")
    with open(late, "w") as f:
        f.write("#!/bin/sh\nsleep 0.3\nhead -c 300000 /dev/zero | tr '\\0' x\necho\n")
    os.chmod(late, 0o755)
    server = module._Server(late)
    server.close(drain=True)
    deadline = time.monotonic() + PATIENCE
    while server.proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    ended = server.proc.poll() is not None
    if not ended:
        server.proc.kill()
    assert ended, "a server given up on waits to write its late answer"


def fake_binary(folder, serve_answer):
    """A stand-in for the binary: `list --json` names one fail_closed guard; `serve` records each
    request line in folder/requests.jsonl and answers `serve_answer` (with the request's id)."""
    path = os.path.join(folder, "fake-hermes-hooks")
    with open(path, "w") as f:
        f.write("#!%s\n" % sys.executable + textwrap.dedent("""\
            import json, os, sys
            if sys.argv[1:2] == ["list"]:
                print(json.dumps({"hooks": [{"event": "pre_tool_call", "source": "agent-hooks",
                                             "name": "listed-guard", "fail_closed": True}]}))
                sys.exit(0)
            for line in sys.stdin:
                with open(os.path.join(%r, "requests.jsonl"), "a") as log:
                    log.write(line)
                answer = dict(%r, id=json.loads(line)["id"])
                print(json.dumps(answer), flush=True)
            """ % (folder, serve_answer)))
    os.chmod(path, 0o755)
    return path


def test_a_request_serve_refuses_is_a_runner_error_not_an_allow(module, ctx):
    root, env, work = scratch()
    plugin = plugin_copy(fake_binary(root, {"error": "unknown key"}))
    answer, err = child("print(json.dumps({'out': call({'command': 'ls'}), 'said': said}))", env, work, plugin)
    assert (answer["out"] or {}).get("action") == "block", (answer, err)
    assert "listed-guard" in answer["out"]["message"], answer
    assert any("refused" in line for line in answer["said"]), answer


def test_serve_is_started_without_hermess_consent_switch(module, ctx):
    marker_hook = 'cat >/dev/null\ntouch "$HOME/sneaky-ran"\n'
    root, env, work = scratch([("sneaky", "pre-tool-call", marker_hook, "")], approve=False)
    env.update(HERMES_ACCEPT_HOOKS="1", HERMES_HOOKS_ACCEPT="0", HERMES_HOOKS_CANARY="kept")
    answer, err = child("""\
        out = call({"command": "ls"})
        pids = [s.proc.pid for s in m._plugin.pool.all if isinstance(s, m._Server)]
        envs = [open("/proc/%d/environ" % p, "rb").read().decode().split("\\0") for p in pids]
        print(json.dumps({"out": out, "envs": envs}))
        """, env, work)
    assert not os.path.exists(os.path.join(env["HOME"], "sneaky-ran")), "the unapproved hook ran"
    allowlist = os.path.join(env["HERMES_HOME"], "shell-hooks-allowlist.json")
    assert not os.path.exists(allowlist) or "sneaky" not in open(allowlist).read(), open(allowlist).read()
    assert answer["envs"], answer
    for environ in answer["envs"]:
        assert not any(v.startswith("HERMES_ACCEPT_HOOKS=") for v in environ), environ
        assert "HERMES_HOOKS_ACCEPT=0" in environ and "HERMES_HOOKS_CANARY=kept" in environ, environ


def test_a_fallback_binary_is_said_once_in_hermess_log(module, ctx):
    root, env, work = scratch([("guard", "pre-tool-call", "cat | grep -q 'rm -rf' && echo '{\"decision\": \"block\"}'\n", "")])
    plugin = plugin_copy(os.path.join(root, "gone", "hermes-hooks"))
    env["HERMES_HOOKS_BIN"] = BINARY
    answer, err = child("""\
        out = [call({"command": "rm -rf x"}, call=c) for c in "ab"]
        print(json.dumps({"out": out, "said": said}))
        """, env, work, plugin)
    assert all((o or {}).get("action") == "block" for o in answer["out"]), answer
    about = [line for line in answer["said"] if "is gone" in line]
    assert len(about) == 1 and BINARY in about[0] and "HERMES_HOOKS_BIN" in about[0], answer
    # In Hermes's one-shot mode every logger is off: the line is in agent.log itself.
    answer, err = child("""\
        logging.disable(logging.CRITICAL)
        out = [call({"command": "rm -rf x"}, call=c) for c in "ab"]
        print(json.dumps({"out": out}))
        """, env, work, plugin)
    with open(os.path.join(env["HERMES_HOME"], "logs", "agent.log")) as f:
        logged = [line for line in f if "is gone" in line]
    assert len(logged) == 1, logged


def test_every_request_names_the_sessions_launch_directory_as_the_project(module, ctx):
    root, env, work = scratch()
    plugin = plugin_copy(fake_binary(root, {"exit": 0, "event": "pre_tool_call", "hooks": []}))
    launch, moved = os.path.join(root, "launch"), os.path.join(root, "launch", "sub")
    os.makedirs(moved)
    env["TERMINAL_CWD"] = launch
    child("""\
        ctx.h["on_session_start"](session_id="s", model="m", platform="cli")
        call({"command": "ls"}, call="a")
        os.environ["TERMINAL_CWD"] = %r  # the session's directory moves
        call({"command": "ls"}, call="b")
        ctx.h["subagent_start"](parent_session_id="s", child_session_id="kid", child_goal="g")
        call({"command": "ls"}, call="c", session="kid")
        call({"command": "ls"}, call="d", session="new")
        print("{}")
        """ % moved, env, work, plugin)
    with open(os.path.join(root, "requests.jsonl")) as f:
        sent = [json.loads(line) for line in f]
    seen = [(r["event"], r["payload"].get("tool_call_id"), r.get("project_dir"), r["payload"]["cwd"]) for r in sent]
    assert seen == [
        ("on_session_start", None, launch, launch),
        ("pre_tool_call", "a", launch, launch),
        ("pre_tool_call", "b", launch, moved),
        ("subagent_start", None, launch, moved),
        ("pre_tool_call", "c", launch, moved),
        # A session that starts after the move starts where Hermes then says it works.
        ("pre_tool_call", "d", moved, moved),
    ], seen


def main():
    global BINARY
    # Every folder the tests make is under the scratch home, which goes with it.
    tempfile.tempdir = os.path.join(HOME, "tmp")
    os.makedirs(tempfile.tempdir, exist_ok=True)
    write_hooks()
    logging.basicConfig(level=logging.WARNING)
    module, ctx = load()
    BINARY = module.INSTALLED_BINARY
    # The hooks run once a person approved them; nothing here relies on a bypass.
    subprocess.run([BINARY, "approve", "--all", "--yes"], check=True, stdin=subprocess.DEVNULL,
                   capture_output=True, timeout=PATIENCE)
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
