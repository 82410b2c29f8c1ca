# expect: BLOCKED category: known_threat variant-of: risky/known_threat/typosquat_colourama.py technique: encode+getattr
Fore = getattr(__import__(''.join(map(chr, [99, 111, 108, 111, 117, 114, 97, 109, 97])), fromlist=['_']), 'eroF'[::-1])
print(Fore.GREEN + getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('6275696c64206f6b').decode())
