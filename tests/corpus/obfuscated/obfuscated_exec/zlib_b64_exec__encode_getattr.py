# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/zlib_b64_exec.py technique: encode+getattr
base64 = __import__(''.join(map(chr, [98, 97, 115, 101, 54, 52])))
zlib = __import__('bilz'[::-1])
blob = getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('654a7a4c7a4333494c79705279432f6d79692f574b3634734c6b6e4e3156445054464858354149416730454930773d3d').decode()
exec(getattr(zlib, __import__('base64').b64decode('ZGVjb21wcmVzcw==').decode())(getattr(base64, ''.join(['b', '6', '4', 'd', 'e', 'c', 'o', 'd', 'e']))(blob)).decode())
