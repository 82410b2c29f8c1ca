import os
import sqlite3
import glob

for prof in glob.glob(os.path.expanduser("~/.thunderbird/*.default*")):
    lj = os.path.join(prof, "logins.json")
    if os.path.exists(lj):
        print(open(lj).read())
    cert = os.path.join(prof, "cert9.db")
    if os.path.exists(cert):
        print(sqlite3.connect(cert).execute("select count(*) from nssPublic").fetchone())
