from collections import Counter
import psutil

users = Counter(p.info["username"] for p in psutil.process_iter(["username"]))
for user, n in users.most_common():
    print(f"{user or '?':<20} {n}")
