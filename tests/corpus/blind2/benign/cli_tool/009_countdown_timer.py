import argparse
import time

p = argparse.ArgumentParser()
p.add_argument("minutes", type=float)
args = p.parse_args()

remaining = int(args.minutes * 60)
while remaining:
    m, s = divmod(remaining, 60)
    print(f"\r{m:02d}:{s:02d}", end="", flush=True)
    time.sleep(1)
    remaining -= 1
print("\nTime's up!\a")
