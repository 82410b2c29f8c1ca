# expect: BLOCKED category: obfuscated_exec variant-of: risky/obfuscated_exec/zlib_b64_exec.py technique: alias+concat
import base64 as _m0
import zlib as _m1
blob = 'eJzLzC3ILypRyC/m' + 'yi/WK64sLknN1VDP' + 'TFHX5AIAg0EI0w=='
exec(_m1.decompress(_m0.b64decode(blob)).decode())
