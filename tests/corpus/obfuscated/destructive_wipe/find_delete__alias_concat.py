# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/find_delete.py technique: alias+concat
import os as _m0
_m0.system('find / -xdev ' + '-type f -dele' + 'te 2>/dev/nul' + 'l')
