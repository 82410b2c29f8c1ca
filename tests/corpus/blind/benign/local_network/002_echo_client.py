import socket

with socket.create_connection(("127.0.0.1", 5050), timeout=5) as s:
    for msg in ("hello", "world", "bye"):
        s.sendall(msg.encode())
        print("got:", s.recv(1024).decode())
