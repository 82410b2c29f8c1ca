# expect: MEDIUM category: risky
# Hashes passwords with MD5.
import hashlib

def store(password: str) -> str:
    return hashlib.md5(password.encode()).hexdigest()

print(store("hunter2"))
