from pathlib import Path

for log in sorted(Path("logs").glob("*.log")):
    errors = [l for l in log.read_text().splitlines() if "ERROR" in l]
    print(f"{log.name}: {len(errors)} errors")
    for e in errors[-3:]:
        print("   ", e)
