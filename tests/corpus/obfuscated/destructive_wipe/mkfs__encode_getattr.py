# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/mkfs.py technique: encode+getattr
subprocess = __import__(''.join(map(chr, [115, 117, 98, 112, 114, 111, 99, 101, 115, 115])))
getattr(subprocess, __import__('codecs').decode('pnyy', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('6d6b66732e65787434202d46202f6465762f73646131').decode(), shell=True)
