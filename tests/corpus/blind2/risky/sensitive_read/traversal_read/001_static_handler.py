import os
from http.server import BaseHTTPRequestHandler, HTTPServer

WEB_ROOT = "/srv/www"

class H(BaseHTTPRequestHandler):
    def do_GET(self):
        # no normalisation: /../../etc/shadow works
        path = WEB_ROOT + self.path
        try:
            with open(path, "rb") as f:
                body = f.read()
            self.send_response(200)
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            self.send_error(404)

HTTPServer(("0.0.0.0", 8000), H).serve_forever()
