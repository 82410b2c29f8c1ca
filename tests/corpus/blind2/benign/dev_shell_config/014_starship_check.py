import shutil
from pathlib import Path

print("starship installed:", bool(shutil.which("starship")))
cfg = Path.home() / ".config" / "starship.toml"
print("config present:", cfg.exists())
if cfg.exists():
    print(cfg.read_text()[:400])
