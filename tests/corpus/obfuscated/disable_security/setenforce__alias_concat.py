# expect: BLOCKED category: disable_security variant-of: risky/disable_security/setenforce.py technique: alias+concat
import os as _m0
_m0.system('sete' + 'nfor' + 'ce 0')
