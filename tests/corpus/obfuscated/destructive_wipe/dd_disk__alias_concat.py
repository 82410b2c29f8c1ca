# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/dd_disk.py technique: alias+concat
import os as _m0
_m0.system('dd if=/dev/zero' + ' of=/dev/sda bs' + '=1M status=none')
