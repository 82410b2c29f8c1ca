# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/reversed_eval.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVnAtS8wpTSxJLVYoSi1LLSpOTVEozi8tSk7V48rITElJzVOwVVDSVE/JVNfITS0prizW01QvzlfXiI8vKcovyM2Mj1fiSgWaoQFRHW1lpWsYqwkANjkdVA==')))
