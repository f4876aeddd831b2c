#!/usr/bin/env python3
"""A scripted stand-in for the Anthropic Messages API, for driving Claude Code offline.

It listens on 127.0.0.1 (a free port, written to --port-file once bound), answers
POST /v1/messages with server-sent events (or one JSON body when the request does
not stream), and appends every request it got, as one JSON line, to --log.

The script of the conversation, for a request that offers the Bash tool:
  1. no tool result yet in the conversation: ask for Bash with --command;
  2. a tool result is there: give the final answer (--answer).
With --calls (a JSON list of {"name", "input"}), the conversation asks for each call in turn, one
per request (the Nth request after N-1 tool results asks for the Nth call), then answers.
With --aside TEXT, a conversation whose first user message holds TEXT (a session the scripted
calls start themselves) is not scripted: it gets the final answer at once.
A request that offers no Bash tool (a side query) gets a short text answer.
The server exits by itself after --lifetime seconds, whatever happens.
"""

import argparse
import json
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STATE = {"tool_uses": 0, "lock": threading.Lock()}


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--port-file", required=True)
    p.add_argument("--log", required=True)
    p.add_argument("--command", default="rm -rf keep")
    p.add_argument("--answer", default="All done.")
    p.add_argument("--calls", help="a JSON list of tool calls ({name, input}) asked for in turn")
    p.add_argument("--aside", help="a conversation whose first user message holds this text gets "
                                   "the final answer at once")
    p.add_argument("--lifetime", type=float, default=300.0)
    return p.parse_args()


def tool_results(messages):
    count = 0
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    count += 1
    return count


def first_user_text(messages):
    """The text of the conversation's first user message."""
    for message in messages:
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            return content
        return "\n".join(block.get("text") or "" for block in content or []
                         if isinstance(block, dict) and block.get("type") == "text")
    return ""


def offers_bash(body):
    """Whether the request is the main conversation's: it offers the shell (Bash, or REPL, which
    takes Bash's place when it is switched on)."""
    return any(t.get("name") in ("Bash", "REPL", "Execute") for t in body.get("tools") or []
               if isinstance(t, dict))


def plan_reply(body, args):
    """The content blocks and stop reason this request gets."""
    calls = json.loads(args.calls) if args.calls else [
        {"name": "Bash", "input": {"command": args.command,
                                   "description": "Run the requested command"}}]
    done = tool_results(body.get("messages") or [])
    if args.aside and args.aside in first_user_text(body.get("messages") or []):
        return [{"type": "text", "text": args.answer}], "end_turn"
    if offers_bash(body) and done < len(calls):
        with STATE["lock"]:
            STATE["tool_uses"] += 1
            n = STATE["tool_uses"]
        tool = {"type": "tool_use", "id": "toolu_fake%04d" % n, **calls[done]}
        return [tool], "tool_use"
    if offers_bash(body):
        return [{"type": "text", "text": args.answer}], "end_turn"
    return [{"type": "text", "text": "ok"}], "end_turn"


def message_shell(body, stop_reason=None):
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", "claude-fake"),
        "content": [],
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }


def sse_events(body, blocks, stop_reason):
    yield "message_start", {"type": "message_start", "message": message_shell(body)}
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        yield "content_block_start", {"type": "content_block_start", "index": index, "content_block": start}
        yield "content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": index}
    yield "message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": stop_reason, "stop_sequence": None},
        "usage": {"output_tokens": 5},
    }
    yield "message_stop", {"type": "message_stop"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    args = None

    def log_message(self, *_):
        pass

    def record(self, body):
        entry = {"method": self.command, "path": self.path, "body": body}
        with STATE["lock"], open(self.args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw or b"null")
        except ValueError:
            return {"unparsed": raw.decode("utf-8", "replace")}

    def send_json(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.record(None)
        self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "no"}})

    def do_POST(self):
        body = self.read_body()
        self.record(body)
        if not self.path.startswith("/v1/messages") or not isinstance(body, dict):
            self.send_json(404, {"type": "error", "error": {"type": "not_found_error", "message": "no"}})
            return
        if self.path.startswith("/v1/messages/count_tokens"):
            self.send_json(200, {"input_tokens": 10})
            return
        blocks, stop_reason = plan_reply(body, self.args)
        if not body.get("stream"):
            reply = message_shell(body, stop_reason)
            reply["content"] = blocks
            self.send_json(200, reply)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for name, data in sse_events(body, blocks, stop_reason):
            self.wfile.write(("event: %s\ndata: %s\n\n" % (name, json.dumps(data))).encode())
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
