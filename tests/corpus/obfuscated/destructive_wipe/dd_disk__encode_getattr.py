# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/dd_disk.py technique: encode+getattr
os = __import__(''.join(map(chr, [111, 115])))
getattr(os, __import__('codecs').decode('flfgrz', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('64642069663d2f6465762f7a65726f206f663d2f6465762f7364612062733d314d207374617475733d6e6f6e65').decode())
