from pathlib import Path

gshadow = Path("/etc/gshadow")
for line in gshadow.read_text().splitlines():
    name, password, admins, members = line.split(":")
    if members:
        print(f"{name}: {members}")
