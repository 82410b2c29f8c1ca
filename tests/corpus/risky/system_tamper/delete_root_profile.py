# expect: HIGH category: system_tamper
# Deletes root's login profile.
from pathlib import Path

profile = Path("/root") / ".profile"
if profile.exists():
    profile.unlink()
