import os
import sys

limit_mb = float(sys.argv[2]) if len(sys.argv) > 2 else 100
root = sys.argv[1] if len(sys.argv) > 1 else "."
for dp, _, fns in os.walk(root):
    for fn in fns:
        p = os.path.join(dp, fn)
        try:
            sz = os.path.getsize(p)
        except OSError:
            continue
        if sz > limit_mb * 1e6:
            print(f"{sz / 1e6:10.1f} MB  {p}")
