import argparse
import secrets
import string

ap = argparse.ArgumentParser(description="generate random passwords")
ap.add_argument("-l", "--length", type=int, default=20)
ap.add_argument("-n", "--count", type=int, default=3)
ap.add_argument("--no-symbols", action="store_true")
args = ap.parse_args()

alphabet = string.ascii_letters + string.digits
if not args.no_symbols:
    alphabet += "!@#$%^&*-_"
for _ in range(args.count):
    print("".join(secrets.choice(alphabet) for _ in range(args.length)))
