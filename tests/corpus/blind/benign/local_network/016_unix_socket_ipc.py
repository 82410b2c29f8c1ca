import os
import socket

PATH = "/tmp/myapp.sock"
if os.path.exists(PATH):
    os.remove(PATH)
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(PATH)
srv.listen(1)
conn, _ = srv.accept()
req = conn.recv(1024).decode()
conn.sendall(f"status of {req}: ok".encode())
conn.close()
srv.close()
os.remove(PATH)
