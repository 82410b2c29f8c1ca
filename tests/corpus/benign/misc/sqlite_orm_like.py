# expect: BENIGN category: misc
import sqlite3
from contextlib import closing

SCHEMA = "CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT UNIQUE, email TEXT)"

with closing(sqlite3.connect("app.db")) as conn:
    conn.execute(SCHEMA)
    with conn:
        conn.execute("INSERT OR IGNORE INTO users (name, email) VALUES (?, ?)", ("ada", "ada@example.com"))
    for row in conn.execute("SELECT id, name, email FROM users"):
        print(row)
