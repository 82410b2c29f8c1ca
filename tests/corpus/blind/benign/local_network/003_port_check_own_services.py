import socket

SERVICES = {"postgres": 5432, "redis": 6379, "web": 8000}
for name, port in SERVICES.items():
    with socket.socket() as s:
        s.settimeout(0.5)
        up = s.connect_ex(("localhost", port)) == 0
    print(f"{name:<10} {port:<6} {'up' if up else 'down'}")
