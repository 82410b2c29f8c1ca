import filecmp
import shutil
from pathlib import Path


class Sync:
    def __init__(self, src, dst):
        self.src, self.dst = Path(src), Path(dst)

    def run(self):
        cmp = filecmp.dircmp(self.src, self.dst)
        for name in cmp.left_only + cmp.diff_files:
            s = self.src / name
            if s.is_file():
                shutil.copy2(s, self.dst / name)
                print("copied", name)


Sync("drafts", "published").run()
