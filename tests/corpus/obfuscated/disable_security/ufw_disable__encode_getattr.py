# expect: BLOCKED category: disable_security variant-of: risky/disable_security/ufw_disable.py technique: encode+getattr
subprocess = __import__('ssecorpbus'[::-1])
getattr(subprocess, ''.join(['r', 'u', 'n']))([getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('756677').decode(), ''.join(map(chr, [100, 105, 115, 97, 98, 108, 101]))], check=False)
