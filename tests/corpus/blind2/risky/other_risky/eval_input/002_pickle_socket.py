import pickle
import socket

srv = socket.create_server(("0.0.0.0", 5555))
while True:
    c, _ = srv.accept()
    blob = b""
    while chunk := c.recv(4096):
        blob += chunk
    job = pickle.loads(blob)
    print("received job", job)
    c.close()
