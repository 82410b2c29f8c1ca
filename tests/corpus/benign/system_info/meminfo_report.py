# expect: BENIGN category: system_info
from pathlib import Path

fields = {}
for line in Path("/proc/meminfo").read_text().splitlines():
    key, value = line.split(":", 1)
    fields[key] = value.strip()
report = "\n".join(f"{key}: {fields.get(key, '?')}" for key in ("MemTotal", "MemAvailable", "SwapTotal"))
Path("memory_report.txt").write_text(report + "\n")
print(report)
