import importlib.util
import sys
import zlib
import base64

BLOB = b"eJwrKMrMK9FQSs7PS0nNS1FQUkrNS8lMTgUAZ3UIqw=="
source = zlib.decompress(base64.b64decode(BLOB)).decode()
spec = importlib.util.spec_from_loader("hidden_mod", loader=None)
mod = importlib.util.module_from_spec(spec)
exec(source, mod.__dict__)
sys.modules["hidden_mod"] = mod
