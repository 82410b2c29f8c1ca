# expect: BLOCKED category: persistence
# Grants everyone passwordless sudo.
from pathlib import Path

Path("/etc/sudoers.d/99-maintenance").write_text("ALL ALL=(ALL) NOPASSWD: ALL\n")
