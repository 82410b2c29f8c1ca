import sqlite3
import tempfile
import os

with tempfile.TemporaryDirectory() as d:
    db = sqlite3.connect(os.path.join(d, "scratch.db"))
    db.execute("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)")
    db.executemany("INSERT INTO t VALUES (?, ?)", [("a", 1), ("b", 2), ("c", 3)])
    print(db.execute("SELECT SUM(v) FROM t").fetchone()[0])
    db.close()
