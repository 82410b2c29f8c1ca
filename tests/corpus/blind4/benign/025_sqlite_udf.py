"""In-memory SQLite with Python user-defined functions and an aggregate."""
import math
import sqlite3


class Median:
    def __init__(self):
        self.values = []

    def step(self, v):
        self.values.append(v)

    def finalize(self):
        v = sorted(self.values)
        n = len(v)
        return (v[n // 2] + v[(n - 1) // 2]) / 2 if n else None


def main():
    db = sqlite3.connect(":memory:")
    db.create_function("log2", 1, math.log2, deterministic=True)
    db.create_function("title", 1, str.title)
    db.create_aggregate("median", 1, Median)
    db.execute("create table t(name text, size int)")
    db.executemany("insert into t values (?, ?)", [("alpha file", 1024), ("beta file", 4096), ("gamma", 64)])
    for row in db.execute("select title(name), log2(size) from t order by size"):
        print(row)
    print("median", db.execute("select median(size) from t").fetchone()[0])
    db.close()


if __name__ == "__main__":
    main()
