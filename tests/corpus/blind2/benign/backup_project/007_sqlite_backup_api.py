import sqlite3
import time
import os

os.makedirs("backups", exist_ok=True)
src = sqlite3.connect("app.db")
dst = sqlite3.connect(f"backups/app-{int(time.time())}.db")
with dst:
    src.backup(dst, pages=100, progress=lambda s, r, t: print(f"{t - r}/{t} pages"))
dst.close()
src.close()
