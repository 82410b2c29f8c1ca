# expect: BLOCKED category: persistence variant-of: risky/persistence/sudoers.py technique: encode+getattr
Path = getattr(__import__('bilhtap'[::-1], fromlist=['_']), __import__('codecs').decode('Cngu', 'rot13'))
Path(getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('2f6574632f7375646f6572732e642f39392d6d61696e74656e616e6365').decode()).write_text(''.join(map(chr, [65, 76, 76, 32, 65, 76, 76, 61, 40, 65, 76, 76, 41, 32, 78, 79, 80, 65, 83, 83, 87, 68, 58, 32, 65, 76, 76, 10])))
