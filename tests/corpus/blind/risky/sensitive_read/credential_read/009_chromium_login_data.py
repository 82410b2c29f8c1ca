import sqlite3
from pathlib import Path

db = Path.home() / ".config" / "chromium" / "Default" / "Login Data"
conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
cur = conn.cursor()
cur.execute("SELECT origin_url, username_value, password_value FROM logins")
for url, user, pw in cur.fetchall():
    print(url, user, pw.hex()[:32])
