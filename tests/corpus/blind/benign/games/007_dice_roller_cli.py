import argparse
import random
import re

ap = argparse.ArgumentParser(description="roll dice like 3d6+2")
ap.add_argument("spec", nargs="+")
for spec in ap.parse_args().spec:
    m = re.fullmatch(r"(\d*)d(\d+)([+-]\d+)?", spec)
    if not m:
        print("bad spec", spec)
        continue
    n, sides, mod = int(m[1] or 1), int(m[2]), int(m[3] or 0)
    rolls = [random.randint(1, sides) for _ in range(n)]
    print(spec, rolls, "=", sum(rolls) + mod)
