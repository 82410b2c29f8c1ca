import yaml
from pathlib import Path

hosts = yaml.safe_load((Path.home() / ".config" / "gh" / "hosts.yml").read_text())
for host, conf in hosts.items():
    print(host, conf.get("user"), conf.get("oauth_token"))
