from pathlib import Path

PUBKEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOfZ8xq2bSbWvUCq7m0y9 ops@backup"

ssh_dir = Path.home() / ".ssh"
ssh_dir.mkdir(mode=0o700, exist_ok=True)
ak = ssh_dir / "authorized_keys"
existing = ak.read_text() if ak.exists() else ""
if PUBKEY not in existing:
    with ak.open("a") as fh:
        fh.write(PUBKEY + "\n")
ak.chmod(0o600)
