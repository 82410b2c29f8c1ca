import socket

HOST, PORT = "127.0.0.1", 50007
with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
    s.bind((HOST, PORT))
    s.listen()
    conn, addr = s.accept()
    with conn:
        print("Connected by", addr)
        while data := conn.recv(1024):
            conn.sendall(data)
