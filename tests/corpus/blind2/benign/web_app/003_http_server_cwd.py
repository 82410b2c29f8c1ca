import http.server
import socketserver
import functools

PORT = 8000
Handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory="public")
with socketserver.TCPServer(("127.0.0.1", PORT), Handler) as httpd:
    print(f"serving ./public at http://127.0.0.1:{PORT}")
    httpd.serve_forever()
