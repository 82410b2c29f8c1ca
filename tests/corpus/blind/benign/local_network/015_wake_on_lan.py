import socket
import sys

mac = sys.argv[1] if len(sys.argv) > 1 else "AA:BB:CC:DD:EE:FF"
raw = bytes.fromhex(mac.replace(":", "").replace("-", ""))
packet = b"\xff" * 6 + raw * 16
with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
    s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    s.sendto(packet, ("255.255.255.255", 9))
print("magic packet sent to", mac)
