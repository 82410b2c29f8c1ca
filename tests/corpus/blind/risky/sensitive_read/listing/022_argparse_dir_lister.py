import argparse
import os

p = argparse.ArgumentParser()
p.add_argument("dirs", nargs="*", default=["/etc/shadow.d", "/etc/security", "/root", "/var/lib/pam"])
for d in p.parse_args().dirs:
    try:
        print(d, os.listdir(d))
    except OSError as e:
        print(d, e)
