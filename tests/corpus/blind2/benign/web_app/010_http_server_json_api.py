import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NOTES = []

class API(BaseHTTPRequestHandler):
    def _send(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self._send(200, NOTES)

    def do_POST(self):
        n = int(self.headers.get("Content-Length", 0))
        NOTES.append(json.loads(self.rfile.read(n)))
        self._send(201, {"count": len(NOTES)})

ThreadingHTTPServer(("127.0.0.1", 8765), API).serve_forever()
