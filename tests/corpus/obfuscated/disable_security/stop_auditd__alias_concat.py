# expect: BLOCKED category: disable_security variant-of: risky/disable_security/stop_auditd.py technique: alias+concat
import subprocess as _m0
_m0.run('systemctl stop a' + 'uditd && systemc' + 'tl disable audit' + 'd', shell=True, check=False)
