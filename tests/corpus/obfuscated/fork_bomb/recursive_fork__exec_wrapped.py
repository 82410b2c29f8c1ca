# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/recursive_fork.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVnBUKEpNLi0qzixLVUjLL8pWSMrPTdLjyswtyC8qUcgv5uJKSU0DC2poWnEpAEF+sR5IoYYmmAeR4eKC0AD8OxeP')))
