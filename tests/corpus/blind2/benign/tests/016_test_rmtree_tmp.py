import shutil
from pathlib import Path

def clean_build(root: Path):
    for d in ("build", "dist"):
        shutil.rmtree(root / d, ignore_errors=True)

def test_clean_build(tmp_path):
    (tmp_path / "build" / "lib").mkdir(parents=True)
    (tmp_path / "dist").mkdir()
    (tmp_path / "src").mkdir()
    clean_build(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]
