import json
import socket
import time

s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
announce = json.dumps({"service": "photo-frame", "port": 8080}).encode()
for _ in range(5):
    s.sendto(announce, ("255.255.255.255", 37020))
    time.sleep(1)
s.close()
