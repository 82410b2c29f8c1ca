import socket

with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as srv:
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 5050))
    srv.listen()
    conn, addr = srv.accept()
    with conn:
        print("connected by", addr)
        while data := conn.recv(1024):
            conn.sendall(data)
