import argparse
import getpass
from pathlib import Path
from cryptography.fernet import Fernet
import base64, hashlib

ap = argparse.ArgumentParser(description="encrypt or decrypt ONE file you name, with a passphrase")
ap.add_argument("mode", choices=["enc", "dec"])
ap.add_argument("file")
a = ap.parse_args()

key = base64.urlsafe_b64encode(hashlib.sha256(getpass.getpass().encode()).digest())
f = Fernet(key)
p = Path(a.file)
if a.mode == "enc":
    p.with_suffix(p.suffix + ".enc").write_bytes(f.encrypt(p.read_bytes()))
else:
    p.with_suffix("").write_bytes(f.decrypt(p.read_bytes()))
print("done")
