"""A stand-in for the Gemini API that Gemini CLI talks to through GOOGLE_GEMINI_BASE_URL.

    fake_model.py --port-file F --log F [--call JSON] [--tool NAME] [--lifetime SECONDS]

Binds 127.0.0.1 on a free port (written to the port file once listening) and scripts one
conversation: when the latest user turn is a prompt and no tool has been asked for yet, the model
asks for the tool (`run_shell_command` unless --tool names another) with the arguments JSON (without --call it answers with text straight
away);
once a tool result came back, or when the prompt is a later one (a keep-working message), it
answers with text. Every request is appended to the log as one JSON line (method, path, body), so
a check can read what the model was sent. It exits by itself after the lifetime.
"""

import argparse
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FINAL_TEXT = "All done."


def parse_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--call", type=json.loads)
    parser.add_argument("--tool", default="run_shell_command")
    parser.add_argument("--lifetime", type=float, default=300)
    return parser.parse_args()


def user_turns(body):
    return [c for c in body.get("contents", []) if c.get("role") == "user"]


def has_function_call(body):
    for content in body.get("contents", []):
        for part in content.get("parts", []):
            if "functionCall" in part:
                return True
    return False


def last_is_function_response(body):
    contents = body.get("contents", [])
    if not contents:
        return False
    return any("functionResponse" in p for p in contents[-1].get("parts", []))


def wants_json(body):
    config = body.get("generationConfig", {})
    return config.get("responseMimeType") == "application/json"


def candidate(parts):
    return {
        "candidates": [
            {"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}
        ],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-2.5-flash",
    }


def json_answer(body):
    """Side calls that ask for JSON (next-speaker check, routing): the user speaks next."""
    text = json.dumps(
        {
            "reasoning": "The answer is complete.",
            "next_speaker": "user",
            "complexity_reasoning": "A short task.",
            "complexity_score": 10,
        }
    )
    return candidate([{"text": text}])


def turn_answer(body, tool, args):
    if args and not has_function_call(body) and not last_is_function_response(body):
        call = {"name": tool, "args": args}
        return candidate([{"functionCall": call}])
    return candidate([{"text": FINAL_TEXT}])


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
        line = json.dumps({"method": self.command, "path": self.path, "body": body})
        with self.server.lock, open(self.server.log_path, "a", encoding="utf-8") as log:
            log.write(line + "\n")

    def send_json(self, obj, status=200):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def send_sse(self, obj):
        data = ("data: " + json.dumps(obj) + "\r\n\r\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        self.record(None)
        if "/models" in self.path:
            self.send_json({"models": [{"name": "models/gemini-2.5-flash"}]})
        else:
            self.send_json({})

    def do_POST(self):
        body = self.read_body()
        self.record(body)
        path = self.path.split("?")[0]
        if path.endswith(":countTokens"):
            self.send_json({"totalTokens": 10})
        elif path.endswith(":streamGenerateContent"):
            self.send_sse(turn_answer(body, self.server.tool, self.server.call))
        elif path.endswith(":generateContent"):
            answer = json_answer(body) if wants_json(body) else turn_answer(body, None, None)
            self.send_json(answer)
        elif path.endswith(":embedContent") or path.endswith(":batchEmbedContents"):
            self.send_json({"embeddings": [{"values": [0.0]}]})
        else:
            self.send_json({})


def main():
    args = parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.lock = threading.Lock()
    server.log_path = args.log
    server.call = args.call
    server.tool = args.tool
    threading.Timer(args.lifetime, server.shutdown).start()
    with open(args.port_file + ".tmp", "w", encoding="utf-8") as f:
        f.write(str(server.server_address[1]))
    os.replace(args.port_file + ".tmp", args.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
