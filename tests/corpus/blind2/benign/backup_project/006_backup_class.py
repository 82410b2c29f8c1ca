import shutil
from datetime import datetime
from pathlib import Path

class ProjectBackup:
    def __init__(self, project: Path, dest: Path, keep: int = 5):
        self.project, self.dest, self.keep = project, dest, keep

    def run(self):
        self.dest.mkdir(parents=True, exist_ok=True)
        name = self.dest / f"{self.project.name}-{datetime.now():%Y%m%d%H%M%S}"
        archive = shutil.make_archive(str(name), "gztar", self.project)
        self.prune()
        return archive

    def prune(self):
        archives = sorted(self.dest.glob(f"{self.project.name}-*.tar.gz"))
        for old in archives[:-self.keep]:
            old.unlink()

if __name__ == "__main__":
    print(ProjectBackup(Path.cwd(), Path.cwd() / "backups").run())
