# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rm_no_preserve_root.py technique: alias+concat
import subprocess as _m0
_m0.run(['r' + 'm', '-' + 'r' + 'f', '--no-p' + 'reserv' + 'e-root', '/'], check=False)
