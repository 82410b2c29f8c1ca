import socket
import psutil

for name, addrs in psutil.net_if_addrs().items():
    for a in addrs:
        if a.family == socket.AF_INET:
            print(f"{name:10} {a.address}/{a.netmask}")
print("hostname:", socket.gethostname())
