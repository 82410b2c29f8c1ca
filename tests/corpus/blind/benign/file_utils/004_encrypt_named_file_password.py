import argparse
import base64
import getpass
import os
from cryptography.fernet import Fernet
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC

ap = argparse.ArgumentParser(description="encrypt one file with a password")
ap.add_argument("file")
a = ap.parse_args()
salt = os.urandom(16)
kdf = PBKDF2HMAC(algorithm=hashes.SHA256(), length=32, salt=salt, iterations=600_000)
key = base64.urlsafe_b64encode(kdf.derive(getpass.getpass().encode()))
with open(a.file, "rb") as f:
    token = Fernet(key).encrypt(f.read())
with open(a.file + ".enc", "wb") as f:
    f.write(salt + token)
print("wrote", a.file + ".enc")
