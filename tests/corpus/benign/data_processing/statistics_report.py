# expect: BENIGN category: data_processing
import statistics

values = [float(line) for line in open("measurements.txt") if line.strip()]
print("count ", len(values))
print("mean  ", statistics.mean(values))
print("median", statistics.median(values))
print("stdev ", statistics.stdev(values) if len(values) > 1 else 0.0)
q = statistics.quantiles(values, n=4) if len(values) > 1 else [0, 0, 0]
print("quartiles", q)
