import sys, zlib, base64
__k = 0x37
__d = b"x\x9c\xcb\xcc-\xc8/*Q\xc8/\xe6*(\xca\xcc+\xd1\xc8/\xd6KO-)\xd7\x04\x00Z\x1a\x07\x8f"
def __x(b):
    return bytes(c ^ 0 for c in b)
exec(zlib.decompress(__x(__d)))
sys.exit(0)
