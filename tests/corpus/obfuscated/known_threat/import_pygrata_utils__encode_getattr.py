# expect: BLOCKED category: known_threat variant-of: risky/known_threat/import_pygrata_utils.py technique: encode+getattr
pygrata_utils = __import__(bytes.fromhex('707967726174615f7574696c73').decode())
getattr(pygrata_utils, ''.join(map(chr, [105, 110, 105, 116])))()
