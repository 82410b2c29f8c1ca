# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rmtree_root.py technique: encode+getattr
shutil = __import__(bytes.fromhex('73687574696c').decode())
getattr(shutil, ''.join(map(chr, [114, 109, 116, 114, 101, 101])))('/', ignore_errors=True)
