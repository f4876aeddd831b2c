"""hermes-hooks inside Hermes: the rules (rules.yaml) and the Agent Hooks (HOOK.md folders) run
for Hermes's events, with every effect Hermes honours from a plugin.

Each event is sent to a `hermes-hooks serve` process with "sources": ["rules", "agent-hooks"]
(Hermes runs its config.yaml hooks itself, so no hook runs twice), and the answer is handed back the way
Hermes reads it: a block on pre_tool_call (or Hermes's own approval prompt when the hooks ask a
person; a block where this Hermes has none or runs with its approvals switched off), a rewrite
of the tool's arguments through the tool_request middleware (which Hermes calls before the
pre_tool_call hooks), context on pre_llm_call, keep working on pre_verify, and a post_tool_call
note appended to the tool result.

Servers are started when first needed, at most POOL_SIZE of them, each with one request at a
time, so a slow hook never holds up an unrelated tool call. They end with Hermes: their stdin is
closed at exit, and when Hermes is killed the pipe closes with it, which ends them as well. They
are started without Hermes's own consent switch (HERMES_ACCEPT_HOOKS, which `hermes -z` sets for
Hermes's shell hooks): approving an Agent Hooks hook is a person's act.

Every request names the session's project (`project_dir`, see _Projects): the model's `cd` moves
the payload's `cwd`, never the project whose guards apply.

The plugin never raises into Hermes (Hermes logs a callback's exception and runs the call).
Anything that keeps a tool call from being decided (a server that died, an argument that cannot
be sent, a bug) is said once in Hermes's log and lets the call go on, unless
HERMES_HOOKS_FAIL_CLOSED=1 or a `fail_closed` guard could apply to the call (the plugin learns
which events have one with `hermes-hooks list`), which block it instead. A binary that cannot be
found blocks each tool call, as command wiring does, unless IF_MISSING is "allow".

Written by `hermes-hooks install hermes`; Python standard library only.
"""

import atexit
import collections
import itertools
import json
import logging
import os
import select
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


_said = set()
_said_lock = threading.Lock()


def _warn_once(key, text):
    """`_warn`, the first time for `key` only; never raises."""
    try:
        with _said_lock:
            if key in _said:
                return
            _said.add(key)
        _warn(text)
    except Exception:
        pass


VERSION = "@HERMES_HOOKS_VERSION@"
INSTALLED_BINARY = "@HERMES_HOOKS_BIN@"
# What a tool call meets when the binary cannot be found: "block" (install's default) or "allow"
# (`install hermes --if-missing allow`).
IF_MISSING = "@HERMES_HOOKS_IF_MISSING@"

# Hermes runs up to 8 tool calls at once.
POOL_SIZE = 8
# Newer Hermes gives a pre_tool_call callback plugins.hook_callback_timeout (30 s by default)
# and blocks the call past it: a tool call's decision is given before that.
DECISION_SECONDS = 29.0
# Decisions taken in the tool_request middleware, waiting for their pre_tool_call.
KEPT_DECISIONS = 256
# Sessions whose project is kept, and projects whose guards are kept.
KEPT_SESSIONS = 1024
KEPT_PROJECTS = 64
# How old what `list` said about a project's guards may be before it is asked again, and how
# long `list` may take.
GUARDS_FRESH_SECONDS = 30.0
LIST_SECONDS = 10.0

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
# The sources run here: rules and Agent Hooks (Hermes runs its config hooks itself).
_SOURCES = ("rules", "agent-hooks")
_NOT_PAYLOAD = ("telemetry_schema_version", "middleware_schema_version", "original_args")

# Hermes's own consent switch for its shell hooks (`hermes -z` and `--accept-hooks` export it).
# It never reaches a process the plugin starts.
_HERMES_CONSENT = "HERMES_ACCEPT_HOOKS"


def _fail_closed():
    return os.environ.get("HERMES_HOOKS_FAIL_CLOSED", "").strip().lower() in ("1", "true", "yes", "on")


def _usable(path):
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)


def _binary():
    """The installed absolute path, else HERMES_HOOKS_BIN, else `hermes-hooks` on PATH; a
    fallback is said once in Hermes's log (it may be another version, or not the one meant)."""
    stamped = not INSTALLED_BINARY.startswith("@")
    if stamped and _usable(INSTALLED_BINARY):
        return INSTALLED_BINARY
    named = os.environ.get("HERMES_HOOKS_BIN", "")
    if _usable(named):
        program, how = named, "HERMES_HOOKS_BIN"
    else:
        program, how = shutil.which("hermes-hooks"), "PATH"
    if program and stamped:
        _warn_once(
            "fallback",
            "hermes-hooks: the binary `hermes-hooks install hermes` wrote this plugin for (%s) is "
            "gone; using %s from %s instead (run `hermes-hooks install hermes` again with the "
            "binary you mean)" % (INSTALLED_BINARY, program, how),
        )
    return program


def _hermes_home():
    try:
        from hermes_constants import get_hermes_home

        return str(get_hermes_home())
    except Exception:
        return None


def _child_env():
    """The environment of every process the plugin starts: Hermes's, with HERMES_HOME as Hermes
    resolved it and without Hermes's own consent switch. HERMES_HOOKS_ACCEPT, this tool's own
    bypass, is kept: a person sets it on purpose."""
    env = dict(os.environ)
    env.pop(_HERMES_CONSENT, None)
    home = _hermes_home()
    if home:
        env["HERMES_HOME"] = home
    return env


_resolve_agent_cwd = None


def _session_cwd():
    """The session's working directory: Hermes's own answer (a gateway chat's directory, else
    TERMINAL_CWD, else where Hermes runs). Hermes's function is looked up once it imports (the
    lookup cost a call as much as the answer)."""
    global _resolve_agent_cwd
    try:
        resolve = _resolve_agent_cwd
        if resolve is None:
            from agent.runtime_cwd import resolve_agent_cwd as resolve

            _resolve_agent_cwd = resolve
        return str(resolve())
    except Exception:
        pass
    configured = os.environ.get("TERMINAL_CWD", "").strip()
    if configured and os.path.isdir(os.path.expanduser(configured)):
        return os.path.expanduser(configured)
    try:
        return os.getcwd()
    except OSError:
        return ""


# -- JSON without a depth limit -----------------------------------------------------------------

_encode_string = json.encoder.encode_basestring_ascii
_END = object()
# What json.dumps(value, default=str) makes for each call, made once: dumps builds a new encoder
# whenever it is given an option, which cost each tool call more than writing its JSON.
_ENCODERS = {
    False: json.JSONEncoder(default=str),
    True: json.JSONEncoder(default=str, sort_keys=True),
}


def _dumps(value, sort_keys=False):
    """`json.dumps(value, sort_keys=sort_keys, default=str)`, the same text at any depth: a value
    nested deeper than Python's recursion limit (a tool argument 1,000 levels deep) is written
    without recursion. Raises ValueError or TypeError for what json cannot write (a value that
    contains itself, a key of another type)."""
    try:
        return _ENCODERS[bool(sort_keys)].encode(value)
    except RecursionError:
        return _dumps_flat(value, sort_keys)


def _float_text(number):
    if number != number:
        return "NaN"
    if number == float("inf"):
        return "Infinity"
    if number == -float("inf"):
        return "-Infinity"
    return float.__repr__(number)


def _scalar_text(value):
    """A value's text when it is not a container; None for a dict, list or tuple."""
    if isinstance(value, str):
        return _encode_string(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float_text(value)
    if isinstance(value, (dict, list, tuple)):
        return None
    return _encode_string(str(value))


def _key_text(key):
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float_text(key)
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError("keys must be str, int, float, bool or None, not %s" % type(key).__name__)


def _dumps_flat(value, sort_keys):
    """json.dumps's text, with a list of open containers instead of recursion."""
    out = []
    # Each open container: [its items, is a dict, its id, no item written yet].
    open_ = []
    inside = set()
    item = value
    while True:
        text = _scalar_text(item)
        if text is not None:
            out.append(text)
        elif not item:
            out.append("{}" if isinstance(item, dict) else "[]")
        else:
            ident = id(item)
            if ident in inside:
                raise ValueError("Circular reference detected")
            inside.add(ident)
            if isinstance(item, dict):
                items = sorted(item.items()) if sort_keys else list(item.items())
                out.append("{")
                open_.append([iter(items), True, ident, True])
            else:
                out.append("[")
                open_.append([iter(item), False, ident, True])
        while open_:
            top = open_[-1]
            following = next(top[0], _END)
            if following is _END:
                open_.pop()
                inside.discard(top[2])
                out.append("}" if top[1] else "]")
                continue
            if not top[3]:
                out.append(", ")
            top[3] = False
            if top[1]:
                key, item = following
                out.append(_encode_string(_key_text(key)))
                out.append(": ")
            else:
                item = following
            break
        else:
            return "".join(out)


# -- the project and its guards -----------------------------------------------------------------


class _Projects:
    """The project each session belongs to: where Hermes said the session works when the plugin
    first heard of it, before the model could act in it.

    That is Hermes's own answer (agent.runtime_cwd.resolve_agent_cwd): in the CLI (`hermes`,
    `hermes -z`), TERMINAL_CWD, which Hermes sets at start to the directory it was launched in
    (or to the worktree of `--worktree`, or to the directory of a resumed session); in the
    gateway, where the process's own directory is not the chat's project, the directory pinned
    for that chat's session (the TUI gateway's workspace), else the configured terminal.cwd.
    The model's `cd` moves the terminal tool's directory and the payload's `cwd`, which may
    add a nested folder's hooks, but never this: a subagent's session takes its parent's."""

    def __init__(self):
        self.lock = threading.Lock()
        self.by_session = collections.OrderedDict()

    def of(self, kwargs):
        session = str(kwargs.get("session_id") or "")
        with self.lock:
            project = self.by_session.get(session)
            if project is not None:
                self.by_session.move_to_end(session)
                return project
        try:
            project = _session_cwd()
        except BaseException:
            project = ""
        try:
            project = os.path.abspath(project or os.getcwd())
        except OSError:
            project = ""
        with self.lock:
            return self._keep(session, project)

    def inherit(self, kwargs):
        """subagent_start: the child session works in its parent's project."""
        parent = str(kwargs.get("parent_session_id") or "")
        child = str(kwargs.get("child_session_id") or "")
        if not child:
            return
        project = self.of({"session_id": parent})
        with self.lock:
            if child not in self.by_session:
                self._keep(child, project)

    def _keep(self, session, project):
        kept = self.by_session.setdefault(session, project)
        while len(self.by_session) > KEPT_SESSIONS:
            self.by_session.popitem(last=False)
        return kept


class _Known:
    """What `list` said about one project: the names of its fail_closed Agent Hooks guards by
    event (None until it first answered)."""

    def __init__(self):
        self.guards = None
        self.asked_at = None
        self.answered = threading.Event()
        self.asking = False


class _Guards:
    """Which events of a project have a `fail_closed` guard, so that a call the hooks could not
    decide is blocked where one could apply. Learned with `hermes-hooks list --json` when a
    project is first seen, and again in the background when what was learned is older than
    GUARDS_FRESH_SECONDS."""

    def __init__(self):
        self.lock = threading.Lock()
        self.projects = collections.OrderedDict()

    def learn(self, project):
        """Starts learning a project's guards when nothing fresh is known; never waits."""
        with self.lock:
            known = self.projects.get(project)
            if known is None:
                known = self.projects[project] = _Known()
                while len(self.projects) > KEPT_PROJECTS:
                    self.projects.popitem(last=False)
            fresh = known.asked_at is not None and time.monotonic() - known.asked_at < GUARDS_FRESH_SECONDS
            if known.asking or fresh:
                return known
            known.asking = True
            known.asked_at = time.monotonic()
        try:
            threading.Thread(target=self._ask_list, args=(project, known), daemon=True,
                             name="hermes-hooks-guards").start()
        except Exception:
            with self.lock:
                known.asking = False
            known.answered.set()
        return known

    def guard(self, event, project, deadline=None):
        """The name of a fail_closed guard on `event` in `project`, or None when none is known;
        waits for the first answer of `list`, up to the deadline."""
        known = self.learn(project)
        wait = LIST_SECONDS if deadline is None else max(0.0, min(LIST_SECONDS, deadline - time.monotonic()))
        known.answered.wait(wait)
        names = (known.guards or {}).get(event) or ()
        return names[0] if names else None

    def _ask_list(self, project, known):
        guards = None
        try:
            program = _binary()
            if program:
                done = subprocess.run(
                    [program, "list", "--json"],
                    cwd=project or None,
                    env=_child_env(),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    timeout=LIST_SECONDS,
                    close_fds=True,
                )
                listed = json.loads(done.stdout.decode("utf-8", "replace"))
                guards = {}
                for hook in listed.get("hooks") or []:
                    source = hook.get("source")
                    if source in _SOURCES and hook.get("fail_closed") is True:
                        guards.setdefault(str(hook.get("event")), []).append(str(hook.get("name")))
        except BaseException:
            guards = None
        with self.lock:
            if guards is not None:
                known.guards = guards
            known.asking = False
        known.answered.set()


# -- the servers --------------------------------------------------------------------------------


class Unanswered(Exception):
    """No answer came: `kind` says why (missing, died, slow, refused, or a failure's type),
    `message` in a sentence."""

    def __init__(self, kind, message, sent=True):
        super().__init__(message)
        self.kind = kind
        self.sent = sent


def _failure(err):
    """Any exception raised while deciding, as an Unanswered."""
    if isinstance(err, Unanswered):
        return err
    kind = type(err).__name__
    try:
        text = str(err)
    except BaseException:
        text = ""
    what = "%s: %s" % (kind, text) if text else kind
    return Unanswered("failed:" + kind, "the hermes-hooks plugin failed while deciding (%s)" % what)


class _Server:
    """One `hermes-hooks serve`, one request at a time."""

    def __init__(self, program):
        self.proc = subprocess.Popen(
            [program, "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=_child_env(),
            close_fds=True,
            # Out of Hermes's process group: a Ctrl-C that stops a turn does not end the servers.
            start_new_session=True,
        )
        # The caller that asked reads the answer itself (one request at a time): no thread of
        # ours stands between the server's line and the call waiting for it.
        self.out = self.proc.stdout.fileno()
        self.pending = b""
        self.poller = select.poll()  # not select(): Hermes may hold more than 1,024 descriptors
        self.poller.register(self.out, select.POLLIN)
        threading.Thread(target=self._read_talk, daemon=True, name="hermes-hooks-err").start()

    def _next_line(self, deadline):
        """The server's next line (without its end), or None once its stdout ended; raises
        Unanswered when the deadline passes first."""
        while b"\n" not in self.pending:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic()) * 1000.0
            if not self.poller.poll(wait):
                raise Unanswered("slow", "the hooks did not answer within %g s" % DECISION_SECONDS)
            try:
                chunk = os.read(self.out, 65536)
            except InterruptedError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                return None
            self.pending += chunk
        line, _, self.pending = self.pending.partition(b"\n")
        return line

    def _read_talk(self):
        try:
            for line in self.proc.stderr:
                text = line.decode("utf-8", "replace").rstrip()
                if text:
                    # serve's own lines start with "hermes-hooks:".
                    _warn(text)
        except (OSError, ValueError):
            pass
        try:
            self.proc.wait()
        except Exception:
            pass

    def ask(self, ident, line, deadline):
        try:
            self.proc.stdin.write(line + b"\n")
            self.proc.stdin.flush()
        except (OSError, ValueError) as err:
            raise Unanswered("died", "a hermes-hooks server ended (%s)" % err, sent=False)
        while True:
            raw = self._next_line(deadline)
            if raw is None:
                code = self.proc.poll()
                raise Unanswered("died", "a hermes-hooks server ended (exit status %s)" % code)
            try:
                answer = json.loads(raw)
            except ValueError:
                continue
            if isinstance(answer, dict) and answer.get("id") == ident:
                if "exit" not in answer:
                    # {"id", "error"}: a request serve could not take.
                    raise Unanswered("refused", "hermes-hooks refused the request: %s" % answer.get("error"))
                return answer

    def close(self, drain=False):
        """Ends the server: end of stdin ends it once its running hooks are done. With `drain`
        (a server no call waits on any more), what it still answers is read and dropped, so a
        late answer larger than the pipe never leaves it waiting to write."""
        try:
            self.proc.stdin.close()
        except Exception:
            pass
        if drain:
            try:
                threading.Thread(target=self._drain, daemon=True, name="hermes-hooks-out").start()
            except Exception:
                pass

    def _drain(self):
        try:
            while os.read(self.out, 65536):
                pass
        except OSError:
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
                server.close(drain=True)
            self.cond.notify()

    def call(self, ident, line, deadline=None):
        """The answer to one request line; raises Unanswered (or whatever went wrong)."""
        for attempt in (1, 2):
            server = self._take(deadline)
            try:
                answer = server.ask(ident, line, deadline)
            except Unanswered as err:
                self._give_back(server, keep=err.kind == "refused")
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


# -- asking a person ------------------------------------------------------------------------------


def _hermes_asks():
    """Whether this Hermes has its own approval prompt for a plugin's pre_tool_call answer
    `{"action": "approve"}`: its plugin module then offers the helper that reads that answer."""
    try:
        from hermes_cli import plugins

        return any(
            callable(getattr(plugins, name, None))
            for name in ("resolve_pre_tool_block", "get_pre_tool_call_directive")
        )
    except Exception:
        return False


def _approvals_off():
    """Whether Hermes's approval gate would let the call through without asking anyone: with
    --yolo (which `hermes -z` always turns on) or /yolo for the session, it approves at once.
    An ask there is a block, as where Hermes cannot ask; so is a check that fails."""
    try:
        from tools import approval
    except Exception:
        return os.environ.get("HERMES_YOLO_MODE", "").strip().lower() in ("1", "true", "yes", "on")
    try:
        if getattr(approval, "_YOLO_MODE_FROZEN", False):
            return True
        session = getattr(approval, "is_current_session_yolo_enabled", None)
        return bool(session()) if callable(session) else False
    except Exception:
        return True


def _ask_as_block(stop):
    """The block given where Hermes cannot ask: the call does not run unattended."""
    return {
        "action": "block",
        "message": "%s; a person must approve this call, and Hermes cannot ask for that here, "
        "so it was blocked" % (stop.get("message") or "a hook asks a person to approve this call",),
    }


def _ask_a_person(answer):
    """Hermes's answer for "ask a person": its approval prompt where it has one and would ask,
    else a block."""
    message = answer.get("message")
    if not isinstance(message, str) or not message:
        message = "a hook asks a person to approve this call"
    stop = {"action": "approve", "message": message}
    rule_key = answer.get("rule_key")
    if isinstance(rule_key, str) and rule_key.strip():
        stop["rule_key"] = rule_key.strip()
    return stop if _hermes_asks() and not _approvals_off() else _ask_as_block(stop)


# -- the plugin ---------------------------------------------------------------------------------


class _Plugin:
    _ids = itertools.count(1)

    def __init__(self):
        self.pool = _Pool()
        self.projects = _Projects()
        self.guards = _Guards()
        self.lock = threading.Lock()
        # Tool-call decisions taken in the tool_request middleware, by call.
        self.decisions = collections.OrderedDict()
        # post_tool_call notes, for the tool result.
        self.notes = collections.OrderedDict()

    # -- talking to the servers -------------------------------------------------------------

    def _say_once(self, err):
        if err.kind == "missing" and IF_MISSING != "allow":
            text = (
                "hermes-hooks: %s; tool calls are blocked until it is installed again "
                "(`hermes-hooks install hermes --if-missing allow` lets them go)" % (err,)
            )
        elif _fail_closed():
            text = "hermes-hooks: %s; tool calls are blocked (HERMES_HOOKS_FAIL_CLOSED=1)" % (err,)
        else:
            text = (
                "hermes-hooks: %s; what the Agent Hooks could not check goes on, except a tool "
                "call a fail_closed guard could apply to (HERMES_HOOKS_FAIL_CLOSED=1 blocks every "
                "tool call instead)" % (err,)
            )
        _warn_once(err.kind, text)

    def _ask(self, event, kwargs, deadline=None, session=None):
        """serve's answer to `event` (a dict); raises Unanswered, or whatever else went wrong.
        The project is that of the event's session (or of `session`)."""
        project = self.projects.of(kwargs if session is None else {"session_id": session})
        self.guards.learn(project)
        payload = {k: v for k, v in kwargs.items() if k not in _NOT_PAYLOAD}
        payload["cwd"] = _session_cwd()
        ident = next(self._ids)
        request = {"id": ident, "event": event, "payload": payload, "sources": list(_SOURCES)}
        if project:
            request["project_dir"] = project
        try:
            line = _dumps(request).encode("utf-8")
        except (ValueError, TypeError) as err:
            raise Unanswered("unsent", "a call could not be sent to hermes-hooks (%s)" % (err,), sent=False)
        return self.pool.call(ident, line, deadline)

    def _ask_quietly(self, event, kwargs, session=None):
        """The answer for an event that cannot block, or None; a failure is said once."""
        try:
            return self._ask(event, kwargs, session=session)
        except BaseException as err:
            self._say_once(_failure(err))
            return None

    # -- tool calls ---------------------------------------------------------------------------

    @staticmethod
    def _call_key(kwargs, args):
        """The call a decision is for, and the arguments its hooks saw."""
        shown = _dumps(args, sort_keys=True)
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

    def _undecided(self, kwargs, err, deadline=None):
        """The block (or None) for a tool call the hooks could not decide: said once; blocked
        when it was slow, in fail-closed mode, or where a fail_closed guard could apply."""
        self._say_once(err)
        if err.kind == "missing" and IF_MISSING != "allow":
            return (
                "hermes-hooks could not check this call, so it was blocked: %s. Install it again, "
                "or run `hermes-hooks install hermes --if-missing allow`" % (err,)
            )
        if err.kind == "slow" or _fail_closed():
            return "hermes-hooks could not check this call: %s" % (err,)
        try:
            guard = self.guards.guard("pre_tool_call", self.projects.of(kwargs), deadline)
        except BaseException:
            guard = None
        if guard is not None:
            return "hook %s could not check this call because %s, so the call was blocked (fail_closed)" % (guard, err)
        return None

    def _decide_tool_call(self, kwargs):
        """(stop or None, new args or None) for a tool call. A stop is Hermes's answer: a block,
        or, when the hooks ask a person, Hermes's own approval prompt where this Hermes has one
        (else a block that says a person must approve the call). A rewrite the hooks gave with
        their question stands: it is what runs if the person says yes."""
        deadline = time.monotonic() + DECISION_SECONDS
        try:
            answer = self._ask("pre_tool_call", kwargs, deadline)
        except BaseException as err:
            block = self._undecided(kwargs, _failure(err), deadline)
            return (None if block is None else {"action": "block", "message": block}), None
        args = answer.get("args") if isinstance(answer.get("args"), dict) else None
        if answer.get("action") == "block":
            return {"action": "block", "message": str(answer.get("message") or "Blocked by a hook")}, None
        if answer.get("action") == "approve":
            return _ask_a_person(answer), args
        if answer.get("action") == "modify":
            return None, args
        return None, None

    def _blocked_anyway(self, kwargs, err):
        """A tool-call callback that failed itself: its block, or None; never raises."""
        try:
            return self._undecided(kwargs, _failure(err))
        except BaseException:
            if _fail_closed():
                return "hermes-hooks could not check this call"
            return None

    def tool_request(self, **kwargs):
        """tool_request middleware: runs the hooks before Hermes's pre_tool_call hooks, so their
        rewrite becomes the call's arguments; a block is kept for pre_tool_call to give. When
        this fails, nothing is kept and pre_tool_call decides the call itself."""
        try:
            args = kwargs.get("args")
            if not isinstance(args, dict):
                return None
            stop, rewritten = self._decide_tool_call(kwargs)
            final = rewritten if rewritten is not None else args
            key, shown = self._call_key(kwargs, final)
            self._keep(self.decisions, key, (stop, shown))
            blocked = stop is not None and stop.get("action") == "block"
            if rewritten is not None and not blocked:
                return {"args": rewritten}
            return None
        except BaseException as err:
            try:
                self._say_once(_failure(err))
            except BaseException:
                pass
            return None

    def pre_tool_call(self, **kwargs):
        try:
            args = kwargs.get("args") if isinstance(kwargs.get("args"), dict) else {}
            key, shown = self._call_key(kwargs, args)
            kept = self._take_kept(self.decisions, key)
            if kept is not None and (kept[0] is not None or kept[1] == shown):
                stop = kept[0]
            else:
                # A call that did not go through the middleware, or whose arguments changed after
                # it: its hooks run now (a rewrite cannot be applied here; a block can).
                stop, rewritten = self._decide_tool_call(kwargs)
                if rewritten is not None and stop is not None and stop.get("action") == "approve":
                    # The person would be asked about a call other than the one that runs.
                    stop = _ask_as_block(stop)
        except BaseException as err:
            block = self._blocked_anyway(kwargs, err)
            stop = None if block is None else {"action": "block", "message": block}
        return stop

    def post_tool_call(self, **kwargs):
        try:
            answer = self._ask_quietly("post_tool_call", kwargs)
            if answer is None:
                return None
            note = answer.get("context") or (answer.get("message") if answer.get("action") == "block" else None)
            if isinstance(note, str) and note:
                key = (kwargs.get("session_id") or "", kwargs.get("tool_call_id") or "", kwargs.get("tool_name") or "")
                self._keep(self.notes, key, note)
        except BaseException as err:
            self._say_once(_failure(err))
        return None

    def transform_tool_result(self, **kwargs):
        try:
            key = (kwargs.get("session_id") or "", kwargs.get("tool_call_id") or "", kwargs.get("tool_name") or "")
            note = self._take_kept(self.notes, key)
            result = kwargs.get("result")
            if note is None or not isinstance(result, str):
                return None
            return "%s\n\n%s" % (result, note)
        except BaseException as err:
            self._say_once(_failure(err))
            return None

    # -- the other events ---------------------------------------------------------------------

    def pre_llm_call(self, **kwargs):
        try:
            answer = self._ask_quietly("pre_llm_call", kwargs)
            context = answer.get("context") if answer is not None else None
            if isinstance(context, str) and context:
                return {"context": context}
        except BaseException as err:
            self._say_once(_failure(err))
        return None

    def pre_verify(self, **kwargs):
        try:
            answer = self._ask_quietly("pre_verify", kwargs)
            if answer is None:
                return None
            message = answer.get("message")
            if answer.get("action") == "continue" and isinstance(message, str) and message:
                return {"action": "continue", "message": message}
        except BaseException as err:
            self._say_once(_failure(err))
        return None

    def subagent_start(self, **kwargs):
        try:
            self.projects.inherit(kwargs)
            self._ask_quietly("subagent_start", kwargs, session=str(kwargs.get("parent_session_id") or ""))
        except BaseException as err:
            self._say_once(_failure(err))
        return None

    def observer(self, event):
        def observe(**kwargs):
            try:
                self._ask_quietly(event, kwargs)
            except BaseException as err:
                self._say_once(_failure(err))
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
