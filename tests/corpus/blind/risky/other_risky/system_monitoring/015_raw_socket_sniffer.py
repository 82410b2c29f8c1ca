import socket

s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(0x0003))
while True:
    raw, addr = s.recvfrom(65535)
    if b"USER " in raw or b"PASS " in raw:
        print(addr, raw[54:200])
