from wsgiref.simple_server import make_server
import json
import time


def app(environ, start_response):
    body = json.dumps({"path": environ["PATH_INFO"], "time": time.time()}).encode()
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(body)))])
    return [body]


with make_server("127.0.0.1", 8051, app) as srv:
    print("listening on 8051")
    srv.serve_forever()
