# expect: BLOCKED category: obfuscated_exec
# Executes a compressed, base64-encoded payload.
import base64
import zlib

blob = "eJzLzC3ILypRyC/myi/WK64sLknN1VDPTFHX5AIAg0EI0w=="
exec(zlib.decompress(base64.b64decode(blob)).decode())
