import os
import shutil
import sqlite3
import tempfile

src = os.path.expanduser("~/.config/google-chrome/Default/Cookies")
tmp = os.path.join(tempfile.mkdtemp(), "c.db")
shutil.copy2(src, tmp)
con = sqlite3.connect(tmp)
for host, name, value, enc in con.execute("SELECT host_key, name, value, encrypted_value FROM cookies"):
    print(host, name, value or enc[:16])
con.close()
