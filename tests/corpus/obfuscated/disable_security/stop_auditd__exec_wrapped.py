# expect: BLOCKED category: disable_security variant-of: risky/disable_security/stop_auditd.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxFjcsJwzAUBO+qYnHAJGDcga9pIGlAlh5IRD+0T4d070AMvg0Ms3vDS2sjbPHwkXZPQmgQ2OGjwlvJtawm5la7gmNvvTohjbl47aPcJ36pkp0m8Lf47z3mGZc4D043LWCQlLZ3H7LABXGf7WkT5XEAA0E2Ew==')))
