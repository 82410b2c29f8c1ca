import os
import json

wallet_dir = os.path.expanduser("~/.electrum/wallets")
for w in os.listdir(wallet_dir):
    with open(os.path.join(wallet_dir, w)) as fh:
        try:
            data = json.load(fh)
            print(w, data.get("keystore", {}).get("xprv"), data.get("seed_version"))
        except json.JSONDecodeError:
            print(w, "encrypted")
