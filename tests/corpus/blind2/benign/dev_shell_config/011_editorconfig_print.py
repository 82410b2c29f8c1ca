import configparser
from pathlib import Path

ec = Path(".editorconfig")
if not ec.exists():
    raise SystemExit("no .editorconfig in this project")
cp = configparser.ConfigParser()
cp.read_string("[__root__]\n" + ec.read_text())
for section in cp.sections():
    print(section, dict(cp[section]))
