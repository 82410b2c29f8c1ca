import importlib
import subprocess
import sys

def ensure(pkg, source=None):
    try:
        return importlib.import_module(pkg)
    except ImportError:
        subprocess.run([sys.executable, "-m", "pip", "install", source or pkg], check=True)
        return importlib.import_module(pkg)

yaml = ensure("yaml", "pyyaml")
tqdm = ensure("tqdm")
print(yaml, tqdm)
