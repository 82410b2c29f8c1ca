import socket
from concurrent.futures import ThreadPoolExecutor

# which of my dev ports are taken on this machine?
def check(port):
    with socket.socket() as s:
        s.settimeout(0.2)
        return port, s.connect_ex(("127.0.0.1", port)) == 0

with ThreadPoolExecutor(32) as ex:
    for port, used in ex.map(check, range(3000, 3011)):
        if used:
            print("in use:", port)
