from pathlib import Path

flags = set()
for line in Path("/proc/cpuinfo").read_text().splitlines():
    if line.startswith("flags"):
        flags.update(line.split(":", 1)[1].split())
        break

for feature in ("sse4_2", "avx", "avx2", "avx512f", "aes"):
    print(f"{feature:<8} {'yes' if feature in flags else 'no'}")
