"""hermes-hooks inside Hermes: the Agent Hooks (HOOK.md folders) run for Hermes's events, with
every effect Hermes honours from a plugin.

Each event is sent to a `hermes-hooks serve` process with "sources": ["agent-hooks"] (Hermes
runs its config.yaml hooks itself, so no hook runs twice), and the answer is handed back the way
Hermes reads it: a block on pre_tool_call, a rewrite of the tool's arguments through the
tool_request middleware (which Hermes calls before the pre_tool_call hooks), context on
pre_llm_call, keep working on pre_verify, and a post_tool_call note appended to the tool result.

Servers are started when first needed, at most POOL_SIZE of them, each with one request at a
time, so a slow hook never holds up an unrelated tool call. They end with Hermes: their stdin is
closed at exit, and when Hermes is killed the pipe closes with it, which ends them as well.

When the binary is missing or a server dies, the plugin says so once in Hermes's log and lets
the call go on, unless HERMES_HOOKS_FAIL_CLOSED=1, which blocks tool calls instead.

Written by `hermes-hooks install hermes`; Python standard library only.
"""

import atexit
import collections
import itertools
import json
import logging
import os
import queue
import shutil
import subprocess
import threading
import time

logger = logging.getLogger("hermes_hooks")


def _warn(text):
    """One line in Hermes's log. Hermes's one-shot mode (`hermes -z`) switches every logger off
    (logging.disable), its own file handlers included; a failure that keeps the hooks from
    running must not go unsaid there, so the line is then appended to agent.log directly, in
    Hermes's format."""
    if logging.root.manager.disable >= logging.WARNING:
        try:
            home = os.environ.get("HERMES_HOME") or os.path.join(os.path.expanduser("~"), ".hermes")
            try:
                from hermes_constants import get_hermes_home

                home = str(get_hermes_home())
            except Exception:
                pass
            folder = os.path.join(home, "logs")
            os.makedirs(folder, exist_ok=True)
            now = time.time()
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now))
            line = "%s,%03d WARNING hermes_hooks: %s\n" % (stamp, int(now * 1000) % 1000, text)
            with open(os.path.join(folder, "agent.log"), "a", encoding="utf-8") as log:
                log.write(line)
        except OSError:
            pass
        return
    logger.warning("%s", text)

VERSION = "@HERMES_HOOKS_VERSION@"
INSTALLED_BINARY = "@HERMES_HOOKS_BIN@"

# Hermes runs up to 8 tool calls at once.
POOL_SIZE = 8
# Newer Hermes gives a pre_tool_call callback plugins.hook_callback_timeout (30 s by default)
# and blocks the call past it: a tool call's decision is given before that.
DECISION_SECONDS = 29.0
# Decisions taken in the tool_request middleware, waiting for their pre_tool_call.
KEPT_DECISIONS = 256

# Hermes's events that have an Agent Hooks counterpart.
EVENTS = (
    "pre_tool_call",
    "post_tool_call",
    "pre_llm_call",
    "post_llm_call",
    "pre_verify",
    "on_session_start",
    "on_session_end",
    "subagent_start",
    "subagent_stop",
)

# What Hermes adds to every call and no hook needs.
_NOT_PAYLOAD = ("telemetry_schema_version", "middleware_schema_version", "original_args")


def _fail_closed():
    return os.environ.get("HERMES_HOOKS_FAIL_CLOSED", "").strip().lower() in ("1", "true", "yes", "on")


def _binary():
    """The installed absolute path, else HERMES_HOOKS_BIN, else `hermes-hooks` on PATH."""
    for candidate in (INSTALLED_BINARY, os.environ.get("HERMES_HOOKS_BIN", "")):
        if candidate and not candidate.startswith("@") and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("hermes-hooks")


def _hermes_home():
    try:
        from hermes_constants import get_hermes_home

        return str(get_hermes_home())
    except Exception:
        return None


def _session_cwd():
    """The session's working directory: Hermes's own answer (a gateway chat's directory, else
    TERMINAL_CWD, else where Hermes runs)."""
    try:
        from agent.runtime_cwd import resolve_agent_cwd

        return str(resolve_agent_cwd())
    except Exception:
        pass
    configured = os.environ.get("TERMINAL_CWD", "").strip()
    if configured and os.path.isdir(os.path.expanduser(configured)):
        return os.path.expanduser(configured)
    try:
        return os.getcwd()
    except OSError:
        return ""


class Unanswered(Exception):
    """No answer came: `kind` says why (missing, died, slow), `message` in a sentence."""

    def __init__(self, kind, message, sent=True):
        super().__init__(message)
        self.kind = kind
        self.sent = sent


class _Server:
    """One `hermes-hooks serve`, one request at a time."""

    _ids = itertools.count(1)

    def __init__(self, program):
        env = dict(os.environ)
        home = _hermes_home()
        if home:
            env["HERMES_HOME"] = home
        self.proc = subprocess.Popen(
            [program, "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            close_fds=True,
            # Out of Hermes's process group: a Ctrl-C that stops a turn does not end the servers.
            start_new_session=True,
        )
        self.answers = queue.Queue()
        threading.Thread(target=self._read_answers, daemon=True, name="hermes-hooks-out").start()
        threading.Thread(target=self._read_talk, daemon=True, name="hermes-hooks-err").start()

    def _read_answers(self):
        try:
            for line in self.proc.stdout:
                self.answers.put(line)
        except (OSError, ValueError):
            pass
        self.answers.put(None)

    def _read_talk(self):
        try:
            for line in self.proc.stderr:
                text = line.decode("utf-8", "replace").rstrip()
                if text:
                    # serve's own lines start with "hermes-hooks:".
                    logger.warning("%s", text)
        except (OSError, ValueError):
            pass
        try:
            self.proc.wait()
        except Exception:
            pass

    def ask(self, event, payload, deadline):
        ident = next(self._ids)
        line = json.dumps(
            {"id": ident, "event": event, "payload": payload, "sources": ["agent-hooks"]},
            default=str,
        )
        try:
            self.proc.stdin.write(line.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as err:
            raise Unanswered("died", "a hermes-hooks server ended (%s)" % err, sent=False)
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                raw = self.answers.get(timeout=wait)
            except queue.Empty:
                raise Unanswered("slow", "the hooks did not answer within %g s" % DECISION_SECONDS)
            if raw is None:
                code = self.proc.poll()
                raise Unanswered("died", "a hermes-hooks server ended (exit status %s)" % code)
            try:
                answer = json.loads(raw)
            except ValueError:
                continue
            if isinstance(answer, dict) and answer.get("id") == ident:
                return answer

    def close(self):
        """Ends the server: end of stdin ends it once its running hooks are done."""
        try:
            self.proc.stdin.close()
        except Exception:
            pass


class _Pool:
    """At most POOL_SIZE servers, started when needed; a caller takes an idle one or waits."""

    def __init__(self):
        self.cond = threading.Condition()
        self.idle = []
        self.all = set()
        self.pid = os.getpid()
        self.closed = False

    def _take(self, deadline):
        with self.cond:
            if self.pid != os.getpid():
                # A forked child: the parent's servers are the parent's.
                self.idle, self.all, self.pid = [], set(), os.getpid()
            while not self.idle and len(self.all) >= POOL_SIZE:
                wait = None if deadline is None else deadline - time.monotonic()
                if wait is not None and wait <= 0:
                    raise Unanswered("slow", "every hermes-hooks server stayed busy for %g s" % DECISION_SECONDS)
                self.cond.wait(wait)
            if self.idle:
                return self.idle.pop()
            placeholder = object()
            self.all.add(placeholder)
        try:
            program = _binary()
            if program is None:
                raise Unanswered(
                    "missing",
                    "hermes-hooks is not installed where the plugin looks (the path install wrote, "
                    "HERMES_HOOKS_BIN, PATH)",
                    sent=False,
                )
            try:
                server = _Server(program)
            except OSError as err:
                raise Unanswered("missing", "cannot start %s serve: %s" % (program, err), sent=False)
        except BaseException:
            with self.cond:
                self.all.discard(placeholder)
                self.cond.notify()
            raise
        with self.cond:
            self.all.discard(placeholder)
            self.all.add(server)
        return server

    def _give_back(self, server, keep):
        with self.cond:
            if keep and not self.closed:
                self.idle.append(server)
            else:
                self.all.discard(server)
                server.close()
            self.cond.notify()

    def call(self, event, payload, deadline=None):
        """The answer to one event; raises Unanswered."""
        for attempt in (1, 2):
            server = self._take(deadline)
            try:
                answer = server.ask(event, payload, deadline)
            except Unanswered as err:
                self._give_back(server, keep=False)
                # A server found dead before the request reached it: nothing ran, try a new one.
                if not err.sent and attempt == 1:
                    continue
                raise
            except BaseException:
                self._give_back(server, keep=False)
                raise
            self._give_back(server, keep=True)
            return answer

    def close(self):
        with self.cond:
            self.closed = True
            servers = [s for s in self.all if isinstance(s, _Server)]
            self.idle = []
        for server in servers:
            server.close()


class _Plugin:
    def __init__(self):
        self.pool = _Pool()
        self.said = set()
        self.lock = threading.Lock()
        # Tool-call decisions taken in the tool_request middleware, by call.
        self.decisions = collections.OrderedDict()
        # post_tool_call notes, for the tool result.
        self.notes = collections.OrderedDict()

    # -- talking to the servers -------------------------------------------------------------

    def _say_once(self, err):
        with self.lock:
            if err.kind in self.said:
                return
            self.said.add(err.kind)
        if _fail_closed():
            _warn("hermes-hooks: %s; tool calls are blocked (HERMES_HOOKS_FAIL_CLOSED=1)" % (err,))
        else:
            _warn(
                "hermes-hooks: %s; the Agent Hooks do not run and calls go on "
                "(HERMES_HOOKS_FAIL_CLOSED=1 blocks tool calls instead)" % (err,)
            )

    def _ask(self, event, kwargs, deadline=None):
        """The answer line for `event`, or an Unanswered."""
        payload = {k: v for k, v in kwargs.items() if k not in _NOT_PAYLOAD}
        payload["cwd"] = _session_cwd()
        try:
            return self.pool.call(event, payload, deadline)
        except Unanswered as err:
            self._say_once(err)
            return err

    # -- tool calls ---------------------------------------------------------------------------

    @staticmethod
    def _call_key(kwargs, args):
        """The call a decision is for, and the arguments its hooks saw."""
        try:
            shown = json.dumps(args, sort_keys=True, default=str)
        except Exception:
            shown = repr(args)
        call = kwargs.get("tool_call_id") or ""
        key = (kwargs.get("session_id") or "", call, kwargs.get("tool_name") or "", "" if call else shown)
        return key, shown

    def _keep(self, store, key, value):
        with self.lock:
            store[key] = value
            while len(store) > KEPT_DECISIONS:
                store.popitem(last=False)

    def _take_kept(self, store, key):
        with self.lock:
            return store.pop(key, None)

    def _decide_tool_call(self, kwargs):
        """(block message or None, new args or None) for a tool call."""
        deadline = time.monotonic() + DECISION_SECONDS
        answer = self._ask("pre_tool_call", kwargs, deadline)
        if isinstance(answer, Unanswered):
            if answer.kind == "slow" or _fail_closed():
                return "hermes-hooks could not check this call: %s" % answer, None
            return None, None
        if answer.get("action") == "block":
            return str(answer.get("message") or "Blocked by a hook"), None
        if answer.get("action") == "modify" and isinstance(answer.get("args"), dict):
            return None, answer["args"]
        return None, None

    def tool_request(self, **kwargs):
        """tool_request middleware: runs the hooks before Hermes's pre_tool_call hooks, so their
        rewrite becomes the call's arguments; a block is kept for pre_tool_call to give."""
        args = kwargs.get("args")
        if not isinstance(args, dict):
            return None
        block, rewritten = self._decide_tool_call(kwargs)
        final = rewritten if rewritten is not None else args
        key, shown = self._call_key(kwargs, final)
        self._keep(self.decisions, key, (block, shown))
        if rewritten is not None and block is None:
            return {"args": rewritten}
        return None

    def pre_tool_call(self, **kwargs):
        args = kwargs.get("args") if isinstance(kwargs.get("args"), dict) else {}
        key, shown = self._call_key(kwargs, args)
        kept = self._take_kept(self.decisions, key)
        if kept is not None and (kept[0] is not None or kept[1] == shown):
            block = kept[0]
        else:
            # A call that did not go through the middleware, or whose arguments changed after
            # it: its hooks run now (a rewrite cannot be applied here; a block can).
            block, _ = self._decide_tool_call(kwargs)
        if block is not None:
            return {"action": "block", "message": block}
        return None

    def post_tool_call(self, **kwargs):
        answer = self._ask("post_tool_call", kwargs)
        if isinstance(answer, Unanswered):
            return None
        note = answer.get("context") or (answer.get("message") if answer.get("action") == "block" else None)
        if isinstance(note, str) and note:
            key = (kwargs.get("session_id") or "", kwargs.get("tool_call_id") or "", kwargs.get("tool_name") or "")
            self._keep(self.notes, key, note)
        return None

    def transform_tool_result(self, **kwargs):
        key = (kwargs.get("session_id") or "", kwargs.get("tool_call_id") or "", kwargs.get("tool_name") or "")
        note = self._take_kept(self.notes, key)
        result = kwargs.get("result")
        if note is None or not isinstance(result, str):
            return None
        return "%s\n\n%s" % (result, note)

    # -- the other events ---------------------------------------------------------------------

    def pre_llm_call(self, **kwargs):
        answer = self._ask("pre_llm_call", kwargs)
        if isinstance(answer, Unanswered):
            return None
        context = answer.get("context")
        if isinstance(context, str) and context:
            return {"context": context}
        return None

    def pre_verify(self, **kwargs):
        answer = self._ask("pre_verify", kwargs)
        if isinstance(answer, Unanswered):
            return None
        message = answer.get("message")
        if answer.get("action") == "continue" and isinstance(message, str) and message:
            return {"action": "continue", "message": message}
        return None

    def observer(self, event):
        def observe(**kwargs):
            self._ask(event, kwargs)
            return None

        observe.__name__ = "hermes_hooks_%s" % event
        return observe

    def close(self):
        self.pool.close()


_plugin = None


def register(ctx):
    """Hermes's entry point."""
    global _plugin
    if _plugin is not None:
        _plugin.close()
    plugin = _Plugin()
    _plugin = plugin
    for event in EVENTS:
        callback = getattr(plugin, event, None) or plugin.observer(event)
        ctx.register_hook(event, callback)
    ctx.register_hook("transform_tool_result", plugin.transform_tool_result)
    ctx.register_middleware("tool_request", plugin.tool_request)
    atexit.register(plugin.close)
