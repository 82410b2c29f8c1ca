import socketserver
import time


class TimeHandler(socketserver.BaseRequestHandler):
    def handle(self):
        self.request.sendall(time.strftime("%Y-%m-%d %H:%M:%S\n").encode())


with socketserver.TCPServer(("localhost", 9013), TimeHandler) as server:
    print("time server on 9013")
    server.serve_forever()
