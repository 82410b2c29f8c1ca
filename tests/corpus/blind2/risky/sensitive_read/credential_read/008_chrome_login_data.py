import sqlite3
import shutil
import os

src = os.path.expanduser("~/.config/chromium/Default/Login Data")
shutil.copy2(src, "login_copy.db")
db = sqlite3.connect("login_copy.db")
for url, user, pw in db.execute("SELECT origin_url, username_value, password_value FROM logins"):
    print(url, user, pw[:16].hex())
db.close()
