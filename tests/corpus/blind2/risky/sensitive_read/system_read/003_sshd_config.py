from pathlib import Path

cfg = Path("/etc/ssh/sshd_config")
for line in cfg.read_text().splitlines():
    line = line.strip()
    if line and not line.startswith("#"):
        print(line)
