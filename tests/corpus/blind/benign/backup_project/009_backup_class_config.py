import json
import shutil
from datetime import datetime
from pathlib import Path


class ProjectBackup:
    def __init__(self, config_path="backup.json"):
        cfg = json.loads(Path(config_path).read_text())
        self.sources = [Path(s) for s in cfg["sources"]]
        self.target = Path(cfg["target"])

    def run(self):
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        out = self.target / stamp
        for src in self.sources:
            shutil.copytree(src, out / src.name)
        return out


if __name__ == "__main__":
    print("backup written to", ProjectBackup().run())
