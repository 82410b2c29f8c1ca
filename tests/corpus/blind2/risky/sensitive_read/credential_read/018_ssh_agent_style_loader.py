import paramiko
import os

class KeyLoader:
    def __init__(self, directory="~/.ssh"):
        self.directory = os.path.expanduser(directory)

    def load_all(self):
        keys = {}
        for name in os.listdir(self.directory):
            path = os.path.join(self.directory, name)
            try:
                keys[name] = paramiko.RSAKey.from_private_key_file(path)
            except Exception:
                continue
        return keys

for n, k in KeyLoader().load_all().items():
    print(n, k.get_fingerprint().hex(), k.get_base64()[:40])
