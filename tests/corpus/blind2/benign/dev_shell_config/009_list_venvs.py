from pathlib import Path

candidates = [Path.home() / ".virtualenvs", Path.home() / ".pyenv" / "versions", Path.cwd()]
for base in candidates:
    if not base.is_dir():
        continue
    for d in base.iterdir():
        if (d / "bin" / "python").exists():
            print(f"{d.name:25} {d}")
