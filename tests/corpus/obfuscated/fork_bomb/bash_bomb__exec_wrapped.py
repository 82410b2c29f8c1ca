# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/bash_bomb.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVggqzStWKMlIVUhKLM5QSMsvylZIys9N0uPKzC3ILypRyC/m4sov1iuuLC5JzdVQstLQrFawqrFSU6i1tlLSBACwKhQe')))
