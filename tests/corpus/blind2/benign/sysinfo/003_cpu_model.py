from pathlib import Path

models = set()
for line in Path("/proc/cpuinfo").read_text().splitlines():
    if line.startswith("model name"):
        models.add(line.split(":", 1)[1].strip())
for m in models:
    print(m)
