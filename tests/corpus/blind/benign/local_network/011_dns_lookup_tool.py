import socket
import sys

for host in sys.argv[1:] or ["python.org", "example.com"]:
    try:
        infos = socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP)
        print(host, sorted({i[4][0] for i in infos}))
    except socket.gaierror as e:
        print(host, "lookup failed:", e)
