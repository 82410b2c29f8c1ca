import socketserver

class Upper(socketserver.StreamRequestHandler):
    def handle(self):
        for line in self.rfile:
            self.wfile.write(line.upper())

if __name__ == "__main__":
    with socketserver.ThreadingTCPServer(("localhost", 7070), Upper) as srv:
        print("uppercase service on localhost:7070")
        srv.serve_forever()
