import pickle
import socket

s = socket.socket()
s.bind(("", 7000))
s.listen(1)
c, _ = s.accept()
buf = b""
while chunk := c.recv(4096):
    buf += chunk
obj = pickle.loads(buf)
print("received", obj)
