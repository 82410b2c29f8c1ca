# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/hex_compile.py technique: alias+concat
code = compile(bytes.fromhex('7072696e742873' + '756d2872616e67' + '65283130292929').decode(), '<pa' + 'ylo' + 'ad>', 'e' + 'x' + 'e' + 'c')
exec(code)
