# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rm_no_preserve_root.py technique: encode+getattr
subprocess = __import__(__import__('codecs').decode('fhocebprff', 'rot13'))
getattr(subprocess, __import__('base64').b64decode('cnVu').decode())([getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))('726d').decode(), ''.join(map(chr, [45, 114, 102])), 'toor-evreserp-on--'[::-1], '/'], check=False)
