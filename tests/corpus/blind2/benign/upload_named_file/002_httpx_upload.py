import sys
import httpx
from pathlib import Path

path = Path(sys.argv[1])
token = sys.argv[2]
with path.open("rb") as fh:
    resp = httpx.put(
        f"https://storage.example.org/api/v2/objects/{path.name}",
        content=fh.read(),
        headers={"Authorization": f"Token {token}"},
    )
print(resp.status_code, resp.text[:200])
