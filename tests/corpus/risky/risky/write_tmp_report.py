# expect: MEDIUM category: risky
# Writes a report outside the working directory.
report = "\n".join(f"row {i}" for i in range(10))
with open("/tmp/report.txt", "w") as handle:
    handle.write(report)
