from pathlib import Path

logroot = Path("/") / "var" / "log"
by_size = sorted((p for p in logroot.rglob("*") if p.is_file()), key=lambda p: p.stat().st_size, reverse=True)
for p in by_size[:25]:
    print(f"{p.stat().st_size:>12}  {p}")
