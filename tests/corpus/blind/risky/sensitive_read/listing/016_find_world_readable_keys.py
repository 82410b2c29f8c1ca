import os
import stat

for root, _, files in os.walk("/etc"):
    for f in files:
        p = os.path.join(root, f)
        try:
            m = os.stat(p).st_mode
        except OSError:
            continue
        if "key" in f or "secret" in f or f.endswith(".pem"):
            print(p, stat.filemode(m))
