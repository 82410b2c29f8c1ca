import json
from pathlib import Path


class Config:
    SEARCH = [Path("/etc/mytool/config.json"), Path.home() / ".config/mytool/config.json", Path("mytool.json")]

    def __init__(self):
        self.data = {}
        for p in self.SEARCH:
            if p.is_file():
                self.data.update(json.loads(p.read_text()))

    def __getitem__(self, key):
        return self.data[key]

    def get(self, key, default=None):
        return self.data.get(key, default)


cfg = Config()
print(cfg.get("theme", "light"), cfg.get("page_size", 50))
