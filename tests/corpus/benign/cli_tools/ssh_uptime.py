# expect: BENIGN category: cli_tools
# Logs in to a few servers with the user's key and prints their uptime.
import os

import paramiko

HOSTS = ["web1.example.com", "web2.example.com"]
for host in HOSTS:
    client = paramiko.SSHClient()
    client.load_system_host_keys()
    client.connect(host, username="deploy", key_filename=os.path.expanduser("~/.ssh/id_ed25519"), timeout=10)
    _, stdout, _ = client.exec_command("uptime")
    print(host, stdout.read().decode().strip())
    client.close()
