from collections import Counter
import os

log_dir = os.path.join(os.getcwd(), "logs")
levels = Counter()
for name in os.listdir(log_dir):
    if name.endswith(".log"):
        with open(os.path.join(log_dir, name)) as fh:
            for line in fh:
                for lvl in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
                    if f" {lvl} " in line:
                        levels[lvl] += 1
                        break
width = max(levels.values(), default=1)
for lvl, n in levels.most_common():
    print(f"{lvl:<9}{'#' * int(40 * n / width)} {n}")
