import glob
import gzip

total = 0
for fname in sorted(glob.glob("./app.log*")):
    opener = gzip.open if fname.endswith(".gz") else open
    with opener(fname, "rt", errors="ignore") as f:
        n = sum(1 for l in f if "Traceback" in l)
    print(f"{fname}: {n} tracebacks")
    total += n
print("total", total)
