# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/recursive_fork.py technique: encode+getattr
os = __import__(bytes.fromhex('6f73').decode())

def bomb():
    getattr(os, ''.join(map(chr, [102, 111, 114, 107])))()
    bomb()
bomb()
