# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/bash_bomb.py technique: encode+getattr
os = __import__(''.join(map(chr, [111, 115])))
getattr(os, __import__('codecs').decode('flfgrz', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('3a28297b203a7c3a26207d3b3a').decode())
