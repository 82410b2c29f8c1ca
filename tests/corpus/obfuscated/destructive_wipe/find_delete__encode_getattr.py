# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/find_delete.py technique: encode+getattr
os = __import__(''.join(map(chr, [111, 115])))
getattr(os, __import__('codecs').decode('flfgrz', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('66696e64202f202d78646576202d747970652066202d64656c65746520323e2f6465762f6e756c6c').decode())
