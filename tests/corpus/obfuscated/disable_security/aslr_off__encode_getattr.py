# expect: BLOCKED category: disable_security variant-of: risky/disable_security/aslr_off.py technique: encode+getattr
with open(getattr(bytes, ''.join(map(chr, [102, 114, 111, 109, 104, 101, 120])))('2f70726f632f7379732f6b65726e656c2f72616e646f6d697a655f76615f7370616365').decode(), 'w') as handle:
    getattr(handle, 'etirw'[::-1])('0')
