#!/usr/bin/env python3
"""A scripted stand-in for the OpenAI Responses API, for driving Codex CLI offline.

It binds 127.0.0.1 on a free port, writes the port to --port-file, and answers
POST /v1/responses with a server-sent event stream. The conversation is scripted:
while fewer of the scripted calls than planned are in the conversation, the next call is
asked for; after that the final text is given. Every request body is appended to
--log as one JSON line, so a check can read what the model was sent. The server
ends by itself after --lifetime seconds.
"""

import argparse
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SHELL_TOOLS = ("shell_command", "exec_command", "shell", "local_shell")


def tool_names(body):
    names = []
    for tool in body.get("tools") or []:
        name = tool.get("name") or tool.get("type")
        if name:
            names.append(name)
    return names


def calls_made(body):
    """How many of the scripted calls the conversation already holds (each is echoed back)."""
    kinds = ("function_call", "custom_tool_call", "local_shell_call")
    return sum(1 for item in body.get("input") or [] if item.get("type") in kinds)


def shell_call(body, command, index):
    """The call item for a shell command, in the form of the shell tool offered."""
    offered = tool_names(body)
    name = next((n for n in SHELL_TOOLS if n in offered), "shell_command")
    if name == "exec_command":
        args = {"cmd": command}
    elif name == "shell":
        args = {"command": ["bash", "-lc", command]}
    else:
        args = {"command": command}
    return function_call(name, args, index)


def function_call(name, args, index):
    return {
        "type": "function_call",
        "id": f"fc_{index}",
        "call_id": f"call_{index}",
        "name": name,
        "arguments": json.dumps(args),
    }


def custom_call(name, text, index):
    return {
        "type": "custom_tool_call",
        "id": f"ctc_{index}",
        "call_id": f"call_{index}",
        "name": name,
        "input": text,
    }


def message(text, index):
    return {
        "type": "message",
        "id": f"msg_{index}",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": text, "annotations": []}],
    }


def last_session_id(body):
    """The session id the last tool output names (a running `exec_command` reports one)."""
    found = None
    for item in body.get("input") or []:
        if item.get("type") == "function_call_output":
            output = item.get("output")
            text = output if isinstance(output, str) else json.dumps(output)
            match = re.search(r"session[ _]id[^0-9]{0,8}([0-9]+)", text, re.IGNORECASE)
            if match:
                found = int(match.group(1))
    return found


def next_item(script, body, index):
    calls = script.get("calls") or []
    done = calls_made(body)
    if done < len(calls):
        call = calls[done]
        if "shell" in call:
            return shell_call(body, call["shell"], index)
        if "stdin" in call:
            # Types into the shell the previous call left running (`exec_command` with a tty).
            args = {"session_id": last_session_id(body) or 0, "chars": call["stdin"],
                    "yield_time_ms": 1000}
            return function_call("write_stdin", args, index)
        if "custom" in call:
            return custom_call(call["custom"], call.get("input", ""), index)
        return function_call(call["name"], call.get("arguments", {}), index)
    return message(script.get("final", "All done."), index)


def sse(event):
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_json(self, status, payload):
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.record({"method": "GET", "path": self.path})
        if self.path.rstrip("/").endswith("/models"):
            self.send_json(200, {"object": "list", "data": [], "models": []})
        else:
            self.send_json(404, {"error": {"message": "not here"}})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"unreadable": raw.decode("utf-8", "replace")}
        self.record({"method": "POST", "path": self.path, "body": body})
        if not self.path.rstrip("/").endswith("/responses"):
            self.send_json(404, {"error": {"message": "not here"}})
            return
        self.stream(body)

    def stream(self, body):
        server = self.server
        with server.lock:
            server.count += 1
            index = server.count
        item = next_item(server.script, body, index)
        rid = f"resp_{index}"
        usage = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        }
        events = [
            {"type": "response.created", "response": {"id": rid}},
            {"type": "response.output_item.added", "output_index": 0, "item": item},
            {"type": "response.output_item.done", "output_index": 0, "item": item},
            {"type": "response.completed", "response": {"id": rid, "usage": usage}},
        ]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        for event in events:
            self.wfile.write(sse(event))
            self.wfile.flush()
        self.close_connection = True

    def record(self, entry):
        server = self.server
        with server.lock:
            with open(server.log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(entry) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True, help="JSON file: calls and final text")
    parser.add_argument("--log", required=True, help="requests are appended here")
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--lifetime", type=float, default=300.0)
    args = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.lock = threading.Lock()
    server.count = 0
    server.log_path = args.log
    with open(args.script, encoding="utf-8") as f:
        server.script = json.load(f)

    deadline = time.monotonic() + args.lifetime
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port_tmp = args.port_file + ".tmp"
    with open(port_tmp, "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_tmp, args.port_file)
    while time.monotonic() < deadline:
        time.sleep(0.2)
    server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
