import configparser
from pathlib import Path

here = Path(__file__).resolve().parent
cp = configparser.ConfigParser()
cp.read(here / "setup.cfg")
print(cp.get("metadata", "name", fallback="?"))
print(cp.get("options", "python_requires", fallback="?"))
