# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/mkfs.py technique: alias+concat
import subprocess as _m0
_m0.call('mkfs.ex' + 't4 -F /' + 'dev/sda' + '1', shell=True)
