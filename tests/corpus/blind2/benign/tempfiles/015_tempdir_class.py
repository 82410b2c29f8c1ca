import shutil
import tempfile
from pathlib import Path

class Workspace:
    def __enter__(self):
        self.path = Path(tempfile.mkdtemp(prefix="ws-"))
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)

with Workspace() as ws:
    (ws / "a.txt").write_text("hi")
    print(list(ws.iterdir()))
