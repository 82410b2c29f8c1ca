# expect: MEDIUM category: risky
# A local echo server.
import socket

with socket.socket() as server:
    server.bind(("127.0.0.1", 8765))
    server.listen()
    conn, _ = server.accept()
    with conn:
        conn.sendall(conn.recv(1024))
