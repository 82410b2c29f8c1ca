import selectors
import socket

sel = selectors.DefaultSelector()
srv = socket.socket()
srv.bind(("localhost", 9090))
srv.listen()
srv.setblocking(False)
sel.register(srv, selectors.EVENT_READ)

while True:
    for key, _ in sel.select():
        if key.fileobj is srv:
            conn, _ = srv.accept()
            conn.setblocking(False)
            sel.register(conn, selectors.EVENT_READ)
        else:
            data = key.fileobj.recv(1024)
            if data:
                key.fileobj.send(data)
            else:
                sel.unregister(key.fileobj)
                key.fileobj.close()
