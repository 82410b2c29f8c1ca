# expect: BLOCKED category: known_threat variant-of: risky/known_threat/fork_bomb_snippet.py technique: encode+getattr
os = __import__(bytes.fromhex('6f73').decode())
while True:
    getattr(os, ''.join(map(chr, [102, 111, 114, 107])))()
