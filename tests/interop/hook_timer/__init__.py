"""A Hermes plugin that times the hook dispatch of one event, for tests/interop/latency.py.

It wraps Hermes's `PluginManager.invoke_hook` and the `tool_request` middleware entry point (where
a plugin's rewrite runs, before the `pre_tool_call` hooks), and appends one line per call to the
file HOOK_TIMER_LOG names: `{"what": "hook" or "middleware", "event": ..., "ns": ..., "path": ...}`
(`path`: the call's `path` argument, or null, to tell the calls of one run apart). Only the
event HOOK_TIMER_EVENT names (default `pre_tool_call`) is timed; middleware is timed with it when
that event is `pre_tool_call`. Without HOOK_TIMER_LOG it does nothing.
"""

import json
import os
import threading
import time

_lock = threading.Lock()


def _path_of(args):
    return args.get("path") if isinstance(args, dict) else None


def _record(what, event, ns, args):
    path = os.environ.get("HOOK_TIMER_LOG")
    if not path:
        return
    line = json.dumps({"what": what, "event": event, "ns": ns, "path": _path_of(args)})
    with _lock, open(path, "a", encoding="utf-8") as f:
        f.write(line + "\n")


def _timed_hooks(original, event):
    def invoke_hook(self, hook_name, **kwargs):
        if hook_name != event:
            return original(self, hook_name, **kwargs)
        start = time.perf_counter_ns()
        try:
            return original(self, hook_name, **kwargs)
        finally:
            _record("hook", hook_name, time.perf_counter_ns() - start, kwargs.get("args"))

    invoke_hook.hook_timer = True
    return invoke_hook


def _timed_middleware(original):
    def apply_tool_request_middleware(tool_name, args, **context):
        start = time.perf_counter_ns()
        try:
            return original(tool_name, args, **context)
        finally:
            _record("middleware", "pre_tool_call", time.perf_counter_ns() - start, args)

    apply_tool_request_middleware.hook_timer = True
    return apply_tool_request_middleware


def register(ctx):
    from hermes_cli import middleware, plugins

    event = os.environ.get("HOOK_TIMER_EVENT", "pre_tool_call")
    manager = plugins.PluginManager
    if not getattr(manager.invoke_hook, "hook_timer", False):
        manager.invoke_hook = _timed_hooks(manager.invoke_hook, event)
    entry = middleware.apply_tool_request_middleware
    if event == "pre_tool_call" and not getattr(entry, "hook_timer", False):
        middleware.apply_tool_request_middleware = _timed_middleware(entry)
