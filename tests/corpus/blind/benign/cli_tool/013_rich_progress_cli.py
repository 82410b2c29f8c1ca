import time
from rich.progress import track
import argparse

ap = argparse.ArgumentParser()
ap.add_argument("n", type=int, nargs="?", default=50)
n = ap.parse_args().n
total = 0
for i in track(range(n), description="Crunching..."):
    total += i * i
    time.sleep(0.02)
print("sum of squares:", total)
