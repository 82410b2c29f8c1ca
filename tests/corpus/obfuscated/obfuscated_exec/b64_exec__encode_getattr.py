# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/b64_exec.py technique: encode+getattr
base64 = __import__(''.join(map(chr, [98, 97, 115, 101, 54, 52])))
exec(getattr(base64, __import__('codecs').decode('o64qrpbqr', 'rot13'))(getattr(bytes, 'xehmorf'[::-1])('6157317762334a304947397a436d397a4c6e4e356333526c6253676e6157516e4b516f3d').decode()))
