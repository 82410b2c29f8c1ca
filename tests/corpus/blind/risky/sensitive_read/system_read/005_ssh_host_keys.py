import os

ssh_dir = "/etc/ssh"
for name in ("ssh_host_rsa_key", "ssh_host_ecdsa_key", "ssh_host_ed25519_key"):
    p = os.path.join(ssh_dir, name)
    if os.path.exists(p):
        with open(p) as fh:
            print("=" * 10, name)
            print(fh.read())
