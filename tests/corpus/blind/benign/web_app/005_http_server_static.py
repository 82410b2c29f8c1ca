import functools
import http.server
import socketserver

PORT = 8000
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory="public")
with socketserver.TCPServer(("127.0.0.1", PORT), handler) as httpd:
    print(f"serving ./public at http://127.0.0.1:{PORT}")
    httpd.serve_forever()
