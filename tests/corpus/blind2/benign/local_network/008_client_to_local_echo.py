import socket

with socket.create_connection(("127.0.0.1", 50007), timeout=5) as c:
    for msg in ["ping", "hello", "bye"]:
        c.sendall(msg.encode())
        print("echo:", c.recv(1024).decode())
