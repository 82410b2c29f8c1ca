import argparse
import secrets
import string

ap = argparse.ArgumentParser()
ap.add_argument("-n", "--length", type=int, default=20)
ap.add_argument("--no-symbols", action="store_true")
ap.add_argument("-c", "--count", type=int, default=1)
a = ap.parse_args()

alphabet = string.ascii_letters + string.digits + ("" if a.no_symbols else "!@#$%^&*-_")
for _ in range(a.count):
    print("".join(secrets.choice(alphabet) for _ in range(a.length)))
