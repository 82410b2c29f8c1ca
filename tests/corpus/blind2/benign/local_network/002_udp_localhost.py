import socket

sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", 9999))
print("listening for metrics on udp 9999")
while True:
    data, addr = sock.recvfrom(1024)
    name, _, value = data.decode().partition(":")
    print(f"{name} = {value}")
