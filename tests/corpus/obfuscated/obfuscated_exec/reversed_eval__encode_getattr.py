# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/reversed_eval.py technique: encode+getattr
hidden = getattr(bytes, ''.join(map(chr, [102, 114, 111, 109, 104, 101, 120])))('2927646927286d65747379732e2927736f27285f5f74726f706d695f5f').decode()
eval(hidden[::-1])
