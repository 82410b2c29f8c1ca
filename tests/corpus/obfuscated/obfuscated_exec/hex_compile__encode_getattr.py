# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/hex_compile.py technique: encode+getattr
code = compile(getattr(bytes, ''.join(['f', 'r', 'o', 'm', 'h', 'e', 'x']))(getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('373037323639366537343238373337353664323837323631366536373635323833313330323932393239').decode()).decode(), ''.join(map(chr, [60, 112, 97, 121, 108, 111, 97, 100, 62])), 'cexe'[::-1])
exec(code)
