import argparse
import time

ap = argparse.ArgumentParser()
ap.add_argument("--work", type=int, default=25)
ap.add_argument("--rest", type=int, default=5)
ap.add_argument("--rounds", type=int, default=4)
a = ap.parse_args()

for r in range(1, a.rounds + 1):
    for label, minutes in (("work", a.work), ("rest", a.rest)):
        for remaining in range(minutes * 60, 0, -1):
            print(f"\rround {r} {label}: {remaining // 60:02d}:{remaining % 60:02d}", end="", flush=True)
            time.sleep(1)
        print("\a")
