# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rm_rf_home.py technique: alias+concat
import os as _m0
print('clea' + 'ning' + ' up.' + '..')
_m0.system('rm' + ' -' + 'rf' + ' ~')
