# expect: BLOCKED category: disable_security variant-of: risky/disable_security/clear_logs.py technique: encode+getattr
os = __import__(''.join(['o', 's']))
for log in (getattr(bytes, __import__('base64').b64decode('ZnJvbWhleA==').decode())('2f7661722f6c6f672f617574682e6c6f67').decode(), ''.join(map(chr, [47, 118, 97, 114, 47, 108, 111, 103, 47, 115, 121, 115, 108, 111, 103])), 'gol.tidua/tidua/gol/rav/'[::-1]):
    try:
        open(log, 'w').close()
    except OSError:
        pass
getattr(os, bytes.fromhex('73797374656d').decode())(__import__('codecs').decode('uvfgbel -p', 'rot13'))
