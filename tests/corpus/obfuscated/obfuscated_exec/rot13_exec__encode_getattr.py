# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/rot13_exec.py technique: encode+getattr
codecs = __import__('scedoc'[::-1])
exec(getattr(codecs, ''.join(['d', 'e', 'c', 'o', 'd', 'e']))(getattr(bytes, __import__('codecs').decode('sebzurk', 'rot13'))('767a636265672063796e677362657a3b2063657661672863796e677362657a2e61627172282929').decode(), ''.join(map(chr, [114, 111, 116, 49, 51]))))
