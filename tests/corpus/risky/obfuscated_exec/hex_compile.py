# expect: BLOCKED category: obfuscated_exec
# Compiles and runs hex-encoded source.
code = compile(bytes.fromhex("7072696e742873756d2872616e6765283130292929").decode(), "<payload>", "exec")
exec(code)
