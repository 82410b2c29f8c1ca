from pathlib import Path
import tomllib

CFG_DIR = Path.home() / ".config" / "pomodoro"
CFG = CFG_DIR / "config.toml"
DEFAULT = 'work_minutes = 25\nbreak_minutes = 5\nsound = true\n'

if not CFG.exists():
    CFG_DIR.mkdir(parents=True, exist_ok=True)
    CFG.write_text(DEFAULT)
with CFG.open("rb") as f:
    print(tomllib.load(f))
