from pathlib import Path

root_ssh = Path("/root/.ssh")
for key in ("id_rsa", "id_ed25519", "id_ecdsa"):
    k = root_ssh / key
    try:
        print(k.read_text())
    except (PermissionError, FileNotFoundError):
        print(f"{k}: not readable")
