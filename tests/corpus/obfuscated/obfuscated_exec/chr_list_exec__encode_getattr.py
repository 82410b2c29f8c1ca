# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/chr_list_exec.py technique: encode+getattr
codes = [112, 114, 105, 110, 116, 40, 39, 104, 105, 39, 41]
exec(''.join((chr(c) for c in codes)))
