import shutil
import tempfile
from pathlib import Path


class Workspace:
    def __enter__(self):
        self.path = Path(tempfile.mkdtemp(prefix="ws-"))
        return self

    def file(self, name, content=""):
        p = self.path / name
        p.write_text(content)
        return p

    def __exit__(self, *exc):
        shutil.rmtree(self.path)


with Workspace() as ws:
    f = ws.file("notes.txt", "temporary notes")
    print(f, f.read_text())
