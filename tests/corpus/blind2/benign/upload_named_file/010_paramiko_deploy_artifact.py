import argparse
import paramiko

ap = argparse.ArgumentParser(description="deploy a built wheel to our staging server")
ap.add_argument("wheel")
ap.add_argument("--host", default="staging.internal.example")
ap.add_argument("--user", default="deploy")
a = ap.parse_args()

client = paramiko.SSHClient()
client.load_system_host_keys()
client.connect(a.host, username=a.user)
sftp = client.open_sftp()
sftp.put(a.wheel, f"/srv/app/dist/{a.wheel.split('/')[-1]}")
sftp.close()
client.close()
