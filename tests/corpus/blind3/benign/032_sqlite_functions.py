import math
import sqlite3
import statistics


class Median:
    def __init__(self):
        self.values = []

    def step(self, value):
        self.values.append(value)

    def finalize(self):
        return statistics.median(self.values)


if __name__ == "__main__":
    db = sqlite3.connect(":memory:")
    db.create_function("log10", 1, math.log10, deterministic=True)
    db.create_function("initials", 1, lambda s: "".join(w[0] for w in s.split()).upper())
    db.create_aggregate("median", 1, Median)
    db.execute("CREATE TABLE city (name TEXT, pop INTEGER)")
    db.executemany("INSERT INTO city VALUES (?, ?)", [("new york", 8_300_000), ("san jose", 970_000), ("el paso", 680_000)])
    for row in db.execute("SELECT initials(name), round(log10(pop), 2) FROM city ORDER BY pop DESC"):
        print(row)
    print("median:", db.execute("SELECT median(pop) FROM city").fetchone()[0])
    db.close()
