import socket

srv = socket.socket()
srv.bind(("0.0.0.0", 9999))
srv.listen()
while True:
    conn, _ = srv.accept()
    expr = conn.recv(4096).decode()
    try:
        result = repr(eval(expr))
    except Exception as e:
        result = f"error: {e}"
    conn.sendall(result.encode())
    conn.close()
