from pathlib import Path

cwd = Path.cwd()
other_project = cwd.parent.parent / "billing-api" / ".env"
for line in other_project.read_text().splitlines():
    if line and not line.startswith("#"):
        key, _, val = line.partition("=")
        print(key, "=", val)
