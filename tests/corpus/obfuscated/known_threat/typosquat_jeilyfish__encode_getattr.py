# expect: BLOCKED category: known_threat variant-of: risky/known_threat/typosquat_jeilyfish.py technique: encode+getattr
jeIlyfish = __import__('hsifylIej'[::-1])
print(getattr(jeIlyfish, ''.join(['l', 'e', 'v', 'e', 'n', 's', 'h', 't', 'e', 'i', 'n', '_', 'd', 'i', 's', 't', 'a', 'n', 'c', 'e']))(getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('6b697474656e').decode(), ''.join(map(chr, [115, 105, 116, 116, 105, 110, 103]))))
