"""A stand-in for an OpenAI-compatible chat-completions server, for driving Hermes in one-shot mode.

    fake_model.py --port-file F --log F --script F [--lifetime SECONDS]

Binds 127.0.0.1 on a free port (written to the port file once listening) and answers
`POST .../chat/completions` from a script, a JSON document:

    {"rounds": [[{"name": "terminal", "arguments": {"command": "ls"}}, ...], ...],
     "final": "All done."}

Each round is one assistant message asking for those tool calls (all of a round at once, so the
agent may run them in parallel). A call may give its arguments as JSON text (`"raw"`) instead, for
arguments Python's json could not write (nested 1,000 levels deep). The answer depends only on the
conversation the request carries: the number of assistant messages with tool calls in it says
which round is next, and once every round is used the model answers with the final text. A request
without tools (a side call, such as a title) gets a short text. Streaming requests get the same
answer as server-sent events. Every request is appended to the log as one JSON line (time, method,
path, body), so a check can read what the model was sent and when. The server exits by itself
after the lifetime.
"""

import argparse
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODEL = "fake-model"


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--script", required=True)
    parser.add_argument("--lifetime", type=float, default=300)
    return parser.parse_args()


def rounds_done(body):
    return sum(
        1
        for m in body.get("messages") or []
        if isinstance(m, dict) and m.get("role") == "assistant" and m.get("tool_calls")
    )


def answer(body, script):
    """The assistant message for this request: the next round of tool calls, or text."""
    if not body.get("tools"):
        return {"role": "assistant", "content": "A title"}
    done = rounds_done(body)
    rounds = script.get("rounds") or []
    if done < len(rounds):
        calls = [
            {
                "id": f"call_{done}_{i}",
                "type": "function",
                "function": {"name": c["name"], "arguments": c.get("raw") or json.dumps(c["arguments"])},
            }
            for i, c in enumerate(rounds[done])
        ]
        return {"role": "assistant", "content": None, "tool_calls": calls}
    return {"role": "assistant", "content": script.get("final", "All done.")}


USAGE = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def completion(message):
    finish = "tool_calls" if message.get("tool_calls") else "stop"
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": MODEL,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": USAGE,
    }


def chunks(message):
    """The same answer as a stream of chat.completion.chunk objects."""
    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk",
            "created": int(time.time()), "model": MODEL}
    delta = {"role": "assistant"}
    if message.get("tool_calls"):
        delta["tool_calls"] = [dict(c, index=i) for i, c in enumerate(message["tool_calls"])]
        finish = "tool_calls"
    else:
        delta["content"] = message.get("content") or ""
        finish = "stop"
    yield dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}])
    yield dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}])
    yield dict(base, choices=[], usage=USAGE)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {"unparsed": raw.decode("utf-8", "replace")}

    def record(self, body):
        line = json.dumps({"time": time.time(), "method": self.command, "path": self.path,
                           "body": body})
        with self.server.lock, open(self.server.log_path, "a", encoding="utf-8") as log:
            log.write(line + "\n")

    def send(self, data, content_type):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.record(None)
        if self.path.rstrip("/").endswith("/models"):
            models = {"object": "list", "data": [{"id": MODEL, "object": "model"}]}
            self.send(json.dumps(models).encode(), "application/json")
        else:
            self.send(b"{}", "application/json")

    def do_POST(self):
        body = self.read_body()
        self.record(body)
        if not self.path.split("?")[0].endswith("/chat/completions"):
            self.send(b"{}", "application/json")
            return
        message = answer(body, self.server.script)
        if body.get("stream"):
            events = "".join("data: " + json.dumps(c) + "\n\n" for c in chunks(message))
            self.send((events + "data: [DONE]\n\n").encode(), "text/event-stream")
        else:
            self.send(json.dumps(completion(message)).encode(), "application/json")


def main():
    args = parse_args()
    with open(args.script, encoding="utf-8") as f:
        script = json.load(f)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.lock = threading.Lock()
    server.log_path = args.log
    server.script = script
    timer = threading.Timer(args.lifetime, server.shutdown)
    timer.daemon = True
    timer.start()
    with open(args.port_file + ".tmp", "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
