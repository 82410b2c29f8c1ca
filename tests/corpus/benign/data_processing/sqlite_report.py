# expect: BENIGN category: data_processing
import sqlite3

conn = sqlite3.connect("inventory.db")
conn.execute("CREATE TABLE IF NOT EXISTS items (name TEXT, qty INTEGER, price REAL)")
conn.executemany("INSERT INTO items VALUES (?, ?, ?)", [("apple", 3, 0.5), ("pear", 5, 0.75)])
conn.commit()
for name, value in conn.execute("SELECT name, qty * price FROM items ORDER BY 2 DESC"):
    print(f"{name}: {value:.2f}")
conn.close()
