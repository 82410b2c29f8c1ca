from urllib.parse import urlparse
from pathlib import Path

store = Path("~/.git-credentials").expanduser()
for line in store.read_text().splitlines():
    u = urlparse(line)
    print(u.hostname, u.username, u.password)
