# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/b64_exec.py technique: alias+concat
import base64 as _m0
exec(_m0.b64decode('aW1wb3J0IG9z' + 'Cm9zLnN5c3Rl' + 'bSgnaWQnKQo='))
