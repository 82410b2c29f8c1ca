import json
from pathlib import Path
from platformdirs import user_config_dir

cfg_dir = Path(user_config_dir("photosorter", "example"))
cfg_file = cfg_dir / "prefs.json"
prefs = json.loads(cfg_file.read_text()) if cfg_file.exists() else {}
prefs.setdefault("sort_by", "date")
cfg_dir.mkdir(parents=True, exist_ok=True)
cfg_file.write_text(json.dumps(prefs, indent=2))
print(prefs)
