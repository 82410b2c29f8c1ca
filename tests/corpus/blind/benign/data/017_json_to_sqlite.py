import json
import sqlite3

records = json.load(open("books.json"))
con = sqlite3.connect("books.db")
con.execute("CREATE TABLE IF NOT EXISTS books (isbn TEXT PRIMARY KEY, title TEXT, year INT)")
con.executemany("INSERT OR REPLACE INTO books VALUES (:isbn, :title, :year)", records)
con.commit()
print(con.execute("SELECT COUNT(*) FROM books").fetchone()[0], "books")
