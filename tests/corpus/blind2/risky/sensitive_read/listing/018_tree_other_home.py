import sys
from pathlib import Path

def tree(p: Path, depth=0, max_depth=2):
    if depth > max_depth:
        return
    try:
        for child in sorted(p.iterdir()):
            print("  " * depth + child.name)
            if child.is_dir():
                tree(child, depth + 1, max_depth)
    except PermissionError:
        print("  " * depth + "[denied]")

tree(Path("/home") / (sys.argv[1] if len(sys.argv) > 1 else "alice"))
