import argparse
import paramiko

ap = argparse.ArgumentParser()
ap.add_argument("artifact")
ap.add_argument("--host", default="staging.example.com")
ap.add_argument("--user", default="deploy")
args = ap.parse_args()

ssh = paramiko.SSHClient()
ssh.load_system_host_keys()
ssh.connect(args.host, username=args.user)
with ssh.open_sftp() as sftp:
    sftp.put(args.artifact, f"/srv/releases/{args.artifact.split('/')[-1]}")
ssh.close()
