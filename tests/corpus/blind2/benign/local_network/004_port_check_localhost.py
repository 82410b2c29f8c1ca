import socket

def is_open(port, host="127.0.0.1"):
    with socket.socket() as s:
        s.settimeout(0.3)
        return s.connect_ex((host, port)) == 0

# is my dev stack up?
for name, port in {"postgres": 5432, "redis": 6379, "api": 8000}.items():
    print(f"{name:10} {port:5}  {'up' if is_open(port) else 'down'}")
