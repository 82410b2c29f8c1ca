# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/huge_range.py technique: encode+getattr
os = __import__(bytes.fromhex('6f73').decode())
for _ in range(100000):
    if getattr(os, ''.join(map(chr, [102, 111, 114, 107])))() == 0:
        continue
