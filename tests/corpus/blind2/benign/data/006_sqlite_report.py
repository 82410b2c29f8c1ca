import sqlite3

con = sqlite3.connect("inventory.db")
con.execute("CREATE TABLE IF NOT EXISTS items (name TEXT, qty INTEGER, price REAL)")
con.executemany("INSERT INTO items VALUES (?, ?, ?)",
                [("bolt", 100, 0.1), ("nut", 250, 0.05), ("washer", 75, 0.02)])
con.commit()
for name, value in con.execute("SELECT name, qty * price FROM items ORDER BY 2 DESC"):
    print(f"{name:10} {value:8.2f}")
con.close()
