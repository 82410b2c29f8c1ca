import os

total = 0
for root, dirs, files in os.walk("/var/log"):
    for f in files:
        fp = os.path.join(root, f)
        try:
            total += os.path.getsize(fp)
            print(fp)
        except OSError:
            pass
print("total bytes", total)
