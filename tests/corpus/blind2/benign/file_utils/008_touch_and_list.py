from pathlib import Path
import time

out = Path("output")
out.mkdir(exist_ok=True)
(out / "last_run.txt").write_text(time.strftime("%c") + "\n")
for p in sorted(out.iterdir()):
    print(f"{p.stat().st_size:8d}  {p.name}")
