import sqlite3

con = sqlite3.connect("library.db")
con.row_factory = sqlite3.Row
rows = con.execute("""
    SELECT a.name AS author, COUNT(b.id) AS books, AVG(b.rating) AS rating
    FROM authors a JOIN books b ON b.author_id = a.id
    GROUP BY a.id ORDER BY books DESC LIMIT 10
""").fetchall()
for r in rows:
    print(f"{r['author']:<25} {r['books']:>3} {r['rating']:.2f}")
con.close()
