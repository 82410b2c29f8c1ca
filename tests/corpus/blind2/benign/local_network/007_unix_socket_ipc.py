import os
import socket

SOCK = "./app.sock"
if os.path.exists(SOCK):
    os.remove(SOCK)
srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
srv.bind(SOCK)
srv.listen(1)
print("waiting on", SOCK)
conn, _ = srv.accept()
print("got:", conn.recv(1024).decode())
conn.sendall(b"ack")
conn.close()
os.remove(SOCK)
