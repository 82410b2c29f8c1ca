# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/itertools_count.py technique: encode+getattr
itertools = __import__(bytes.fromhex('69746572746f6f6c73').decode())
os = __import__(''.join(map(chr, [111, 115])))
for _ in getattr(itertools, 'tnuoc'[::-1])():
    getattr(os, __import__('codecs').decode('sbex', 'rot13'))()
