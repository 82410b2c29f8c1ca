# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/rot13_exec.py technique: alias+concat
import codecs as _m0
exec(_m0.decode('vzcbeg cyngsb' + 'ez; cevag(cyn' + 'gsbez.abqr())', 'r' + 'o' + 't' + '1' + '3'))
