from urllib.parse import urlparse
from pathlib import Path

creds = Path("~/.git-credentials").expanduser()
for line in creds.read_text().splitlines():
    u = urlparse(line.strip())
    print(u.hostname, u.username, u.password)
