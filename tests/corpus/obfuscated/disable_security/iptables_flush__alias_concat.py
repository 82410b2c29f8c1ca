# expect: BLOCKED category: disable_security variant-of: risky/disable_security/iptables_flush.py technique: alias+concat
import os as _m0
for command in ('ipt' + 'abl' + 'es ' + '-F', 'ipt' + 'abl' + 'es ' + '-X', 'iptables' + ' -P INPU' + 'T ACCEPT'):
    _m0.system(command)
