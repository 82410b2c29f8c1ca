from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlparse, parse_qs


class H(BaseHTTPRequestHandler):
    def do_GET(self):
        qs = parse_qs(urlparse(self.path).query)
        code = qs.get("code", [""])[0]
        ns = {}
        exec(code, ns)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(str(ns.get("result")).encode())


HTTPServer(("", 8000), H).serve_forever()
