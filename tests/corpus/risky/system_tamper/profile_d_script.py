# expect: HIGH category: system_tamper
# Drops a script every login shell runs.
from pathlib import Path

Path("/etc/profile.d/zz-motd.sh").write_text("echo welcome back\n")
