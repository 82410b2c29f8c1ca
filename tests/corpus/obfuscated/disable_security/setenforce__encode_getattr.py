# expect: BLOCKED category: disable_security variant-of: risky/disable_security/setenforce.py technique: encode+getattr
os = __import__(''.join(map(chr, [111, 115])))
getattr(os, __import__('codecs').decode('flfgrz', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('736574656e666f7263652030').decode())
