import os
from pathlib import Path

home = Path(os.environ.get("HOME", "~")).expanduser()
for name in (".pgpass", ".my.cnf", ".config/rclone/rclone.conf"):
    f = home / name
    if f.is_file():
        print(f"### {f}")
        print(f.read_text())
