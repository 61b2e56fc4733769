"""An OpenAI-compatible chat-completions endpoint on 127.0.0.1 for tests: each request is
answered with the kernel file (in the directory given as argv[1]) of the overload the task
prompt names ("Implement `aten::mm`" -> mm.py). The chosen port is written to argv[2]."""
import http.server
import json
import os
import pathlib
import re
import sys

KERNELS = pathlib.Path(sys.argv[1])
PORT_FILE = sys.argv[2]


class Handler(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length))
        text = "\n".join(m.get("content", "") for m in body.get("messages", [])
                         if m.get("role") == "user")
        match = re.search(r"Implement `(?:aten::)?([^`]+)`", text)
        path = KERNELS / ((match.group(1) if match else "missing") + ".py")
        code = path.read_text() if path.is_file() else "no kernel for this overload"
        reply = {
            "id": "chatcmpl-verdicts",
            "object": "chat.completion",
            "model": body.get("model", "loopback"),
            "choices": [{
                "index": 0,
                "message": {"role": "assistant", "content": "```python\n" + code + "```\n"},
                "finish_reason": "stop",
            }],
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
