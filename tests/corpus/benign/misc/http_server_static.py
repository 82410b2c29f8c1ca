# expect: BENIGN category: misc
import functools
import http.server

handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory="public")
with http.server.ThreadingHTTPServer(("127.0.0.1", 8000), handler) as server:
    print("serving on http://127.0.0.1:8000")
    server.serve_forever()
