# expect: BLOCKED category: disable_security variant-of: risky/disable_security/ufw_disable.py technique: alias+concat
import subprocess as _m0
_m0.run(['u' + 'f' + 'w', 'di' + 'sa' + 'bl' + 'e'], check=False)
