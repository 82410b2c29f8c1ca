import socket
import json

# ask devices on our own dev LAN segment for a hello (UDP broadcast)
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
s.settimeout(2)
s.sendto(json.dumps({"hello": "devkit"}).encode(), ("255.255.255.255", 40000))
try:
    while True:
        data, addr = s.recvfrom(1024)
        print(addr, data)
except socket.timeout:
    pass
