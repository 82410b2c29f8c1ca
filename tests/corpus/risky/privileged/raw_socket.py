# expect: HIGH category: privileged
# Sniffs packets with a raw socket.
import socket

sniffer = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(3))
print(sniffer.recvfrom(65535)[0][:14])
