"""A stand-in for the OpenAI chat completions API that GitHub Copilot CLI talks to through
COPILOT_PROVIDER_BASE_URL.

    fake_model.py --port-file F --log F [--call JSON]... [--tool NAME] [--lifetime SECONDS]

Binds 127.0.0.1 on a free port (written to the port file once listening) and scripts one
conversation: after the latest user message the model asks for the tool (`bash` unless --tool
names another) once for each --call, in order, each with that arguments JSON (without --call it
answers with text straight away); once every call's result came back it answers with text. Every request is
appended to the log as one JSON line (method, path, body), so a check can read what the model was
sent. It exits by itself after the lifetime.
"""

import argparse
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FINAL_TEXT = "All done."
MODEL = "gpt-4.1"


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--call", type=json.loads, action="append", default=[])
    parser.add_argument("--tool", default="bash")
    parser.add_argument("--lifetime", type=float, default=300)
    return parser.parse_args()


def asked_since_last_user(messages):
    """How many tool calls came after the latest user message."""
    asked = 0
    for message in reversed(messages):
        if message.get("role") == "user":
            break
        if message.get("role") == "assistant" and message.get("tool_calls"):
            asked += 1
    return asked


def reply(body, tool, calls):
    messages = body.get("messages", [])
    asked = asked_since_last_user(messages)
    if asked < len(calls):
        args = calls[asked]
        call = {
            "id": f"call_{len(messages)}",
            "type": "function",
            "function": {"name": tool, "arguments": json.dumps(args)},
        }
        return {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
    return {"role": "assistant", "content": FINAL_TEXT}, "stop"


def chunks(message, finish):
    """The message as a stream of chat completion chunks."""
    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": MODEL}
    delta = {"role": "assistant"}
    if message.get("content") is not None:
        delta["content"] = message["content"]
    if message.get("tool_calls"):
        delta["tool_calls"] = [dict(call, index=i) for i, call in enumerate(message["tool_calls"])]
    yield dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}])
    yield dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}],
               usage={"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15})


def make_handler(args, lock):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def record(self, body):
            with lock, open(args.log, "a", encoding="utf-8") as log:
                log.write(json.dumps({"method": self.command, "path": self.path, "body": body}) + "\n")

        def send_json(self, value):
            data = json.dumps(value).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.record(None)
            if self.path.rstrip("/").endswith("/models"):
                self.send_json({"object": "list", "data": [{"id": MODEL, "object": "model"}]})
            else:
                self.send_json({})

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                body = {"raw": raw.decode(errors="replace")}
            self.record(body)
            message, finish = reply(body, args.tool, args.call)
            if body.get("stream"):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                for chunk in chunks(message, finish):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()
                return
            self.send_json({
                "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
                "model": MODEL,
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
            })

    return Handler


def main():
    args = parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(args, threading.Lock()))
    temp = args.port_file + ".tmp"
    with open(temp, "w", encoding="utf-8") as out:
        out.write(str(server.server_address[1]))
    os.replace(temp, args.port_file)
    threading.Timer(args.lifetime, server.shutdown).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
