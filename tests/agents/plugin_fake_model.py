#!/usr/bin/env python3
"""A scripted stand-in for the OpenAI Chat Completions API, for driving the plugin agents
(OpenCode, Kilo Code, Pi) and Cline offline: qwen/fake_model.py with the shell tool's name as an
option (--shell: `bash` in the three, `run_commands` in Cline) and a last call (--finish: Cline's
run ends only when the model calls `submit_and_exit`).

It listens on 127.0.0.1 (a free port, written to --port-file once bound), answers
POST .../chat/completions with server-sent events (or one JSON body when the request does not
stream), and appends every request it got, as one JSON line, to --log.

The script of the conversation (--calls, a JSON list of {"name", "arguments"}): a request that
offers the shell tool (--shell) and holds N tool results asks for the call N+1, one per request,
then the --finish call when there is one, then gives the final answer (--answer). A request that
offers no shell tool (a side query) gets "ok".
The server exits by itself after --lifetime seconds, whatever happens.
"""

import argparse
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE = {"calls": 0, "lock": threading.Lock()}


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--shell", default="bash")
    p.add_argument("--calls", default=json.dumps([{"name": "bash",
                                                   "arguments": {"command": "rm -rf keep"}}]))
    p.add_argument("--finish", default="null",
                   help="a JSON {name, arguments}: the call after the script's calls")
    p.add_argument("--answer", default="All done.")
    p.add_argument("--lifetime", type=float, default=300.0)
    return p.parse_args()


def offers_shell(body, shell):
    return any((t.get("function") or {}).get("name") == shell for t in body.get("tools") or []
               if isinstance(t, dict))


def plan_reply(body, args):
    """The message this request gets: a tool call, or text."""
    calls = json.loads(args.calls)
    finish = json.loads(args.finish)
    if finish:
        calls = calls + [finish]
    done = sum(1 for m in body.get("messages") or [] if m.get("role") == "tool")
    if offers_shell(body, args.shell) and done < len(calls):
        with STATE["lock"]:
            STATE["calls"] += 1
            n = STATE["calls"]
        call = calls[done]
        return {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_fake%04d" % n, "type": "function",
            "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}]}
    return {"role": "assistant", "content": args.answer if offers_shell(body, args.shell) else "ok"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    args = None

    def log_message(self, *_):
        pass

    def record(self, body):
        entry = {"method": self.command, "path": self.path, "body": body}
        with STATE["lock"], open(self.args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")

    def send_json(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.record(None)
        if self.path.rstrip("/").endswith("/models"):
            self.send_json(200, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]})
            return
        self.send_json(404, {"error": {"message": "no"}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"null")
        except ValueError:
            body = None
        self.record(body)
        if not self.path.rstrip("/").endswith("/chat/completions") or not isinstance(body, dict):
            self.send_json(404, {"error": {"message": "no"}})
            return
        message = plan_reply(body, self.args)
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        base = {"id": "chatcmpl-fake", "created": 0, "model": body.get("model", "fake-model")}
        if not body.get("stream"):
            self.send_json(200, {**base, "object": "chat.completion", "usage": usage,
                                 "choices": [{"index": 0, "message": message,
                                              "finish_reason": finish}]})
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        delta = {"role": "assistant"}
        if message.get("tool_calls"):
            delta["tool_calls"] = [{"index": 0, **c} for c in message["tool_calls"]]
        else:
            delta["content"] = message["content"]
        chunks = [
            {**base, "object": "chat.completion.chunk",
             "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
            {**base, "object": "chat.completion.chunk",
             "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
            {**base, "object": "chat.completion.chunk", "choices": [], "usage": usage},
        ]
        for chunk in chunks:
            self.wfile.write(("data: %s\n\n" % json.dumps(chunk)).encode())
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()
        self.close_connection = True


def main():
    args = parse_args()
    Handler.args = args
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    timer = threading.Timer(args.lifetime, lambda: os._exit(0))
    timer.daemon = True
    timer.start()
    tmp = args.port_file + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(tmp, args.port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
