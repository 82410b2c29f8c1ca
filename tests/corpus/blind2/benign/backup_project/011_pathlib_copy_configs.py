import shutil
from pathlib import Path

project = Path(__file__).resolve().parent
dest = project / "backups" / "configs"
dest.mkdir(parents=True, exist_ok=True)
for cfg in project.glob("*.yaml"):
    shutil.copy2(cfg, dest / cfg.name)
    print("saved", cfg.name)
