import statistics
import sys

latencies = []
with open(sys.argv[1] if len(sys.argv) > 1 else "timings.log") as f:
    for line in f:
        if "took=" in line:
            latencies.append(float(line.split("took=")[1].split("ms")[0]))

q = statistics.quantiles(latencies, n=100)
print(f"n={len(latencies)} p50={q[49]:.1f} p90={q[89]:.1f} p99={q[98]:.1f}")
