import statistics
import sys

nums = [float(x) for x in open(sys.argv[1]).read().split()]
print("n      ", len(nums))
print("mean   ", statistics.mean(nums))
print("stdev  ", statistics.stdev(nums) if len(nums) > 1 else 0)
print("min/max", min(nums), max(nums))
