import sqlite3
from datetime import datetime

src = sqlite3.connect("app.db")
dst = sqlite3.connect(f"backups/app-{datetime.now():%Y%m%dT%H%M}.db")
with dst:
    src.backup(dst, pages=100)
dst.close()
src.close()
print("database backup complete")
