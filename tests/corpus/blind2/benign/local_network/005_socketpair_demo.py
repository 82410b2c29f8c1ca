import socket
import threading

a, b = socket.socketpair()

def worker(sock):
    msg = sock.recv(100)
    sock.sendall(msg.upper())

t = threading.Thread(target=worker, args=(b,))
t.start()
a.sendall(b"hello from parent")
print(a.recv(100))
t.join()
