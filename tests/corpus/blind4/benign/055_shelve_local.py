"""Persist a small key-value cache with shelve in a local temporary folder."""
import os
import shelve
import tempfile


def main():
    with tempfile.TemporaryDirectory(dir=".") as work:
        path = os.path.join(work, "cache")
        with shelve.open(path) as db:
            db["fib"] = [0, 1, 1, 2, 3, 5, 8]
            db["meta"] = {"version": 1}
        with shelve.open(path, flag="r") as db:
            print(sorted(db.keys()), db["fib"][-1], db["meta"])


if __name__ == "__main__":
    main()
