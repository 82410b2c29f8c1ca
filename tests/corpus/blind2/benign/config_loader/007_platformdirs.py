from platformdirs import user_config_dir
from pathlib import Path
import tomllib

cfg_file = Path(user_config_dir("notesapp", "acme")) / "config.toml"
if cfg_file.exists():
    with cfg_file.open("rb") as f:
        conf = tomllib.load(f)
else:
    conf = {"editor": "nano", "notes_dir": str(Path.home() / "notes")}
print("notes directory:", conf["notes_dir"])
print("editor:", conf["editor"])
