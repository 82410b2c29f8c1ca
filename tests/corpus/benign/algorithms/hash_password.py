# expect: BENIGN category: algorithms
import hashlib
import hmac
import os

def hash_password(password: str) -> str:
    salt = os.urandom(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600_000)
    return salt.hex() + ":" + digest.hex()

def verify(password: str, stored: str) -> bool:
    salt_hex, digest_hex = stored.split(":")
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt_hex), 600_000)
    return hmac.compare_digest(digest.hex(), digest_hex)

stored = hash_password("correct horse")
print(verify("correct horse", stored), verify("wrong", stored))
