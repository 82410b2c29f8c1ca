# expect: BENIGN category: system_info
import collections

models = collections.Counter()
with open("/proc/cpuinfo") as handle:
    for line in handle:
        if line.startswith("model name"):
            models[line.split(":", 1)[1].strip()] += 1
for model, count in models.items():
    print(f"{count} x {model}")
