# expect: BLOCKED category: fork_bomb variant-of: risky/fork_bomb/itertools_count.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVnDLL8ouVkjLL0otSy1SKMkoyi9Nz1DILEktKsnPzynWS84vzSvR48rMLcgvKkGIwwTyi7m4gJoV4hUy89B1aWhacSkAQX6xHlBJtoYmALvkJrM=')))
