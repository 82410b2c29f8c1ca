# expect: BENIGN category: algorithms
import secrets
import string

ALPHABET = string.ascii_letters + string.digits + "!@#$%^&*"

def password(length=20):
    while True:
        candidate = "".join(secrets.choice(ALPHABET) for _ in range(length))
        if any(c.isdigit() for c in candidate) and any(c in "!@#$%^&*" for c in candidate):
            return candidate

print(password())
