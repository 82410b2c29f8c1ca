import tomllib
from pathlib import Path

settings_file = Path.home() / ".config" / "notetaker" / "settings.toml"
if settings_file.exists():
    with settings_file.open("rb") as f:
        settings = tomllib.load(f)
else:
    settings = {"editor": "vim", "notes_dir": "~/notes"}
print(settings)
