from pathlib import Path
import json

cfg_dir = Path("~/.config/pomodoro").expanduser()
cfg_dir.mkdir(parents=True, exist_ok=True)
cfg_path = cfg_dir / "settings.json"
if not cfg_path.exists():
    cfg_path.write_text(json.dumps({"work": 25, "break": 5, "long_break": 15}, indent=2))
    print("created", cfg_path)
print(json.loads(cfg_path.read_text()))
