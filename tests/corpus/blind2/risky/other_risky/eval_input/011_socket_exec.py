import socketserver

class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        code = self.request.recv(65536).decode()
        ns = {}
        exec(code, ns)
        self.request.sendall(repr(ns.get("result")).encode())

socketserver.TCPServer(("0.0.0.0", 7000), Handler).serve_forever()
