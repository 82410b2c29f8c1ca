import os
import shelve
from pathlib import Path

NAME = "notes_demo_shelf"


def cleanup():
    for p in Path(".").glob(NAME + "*"):
        p.unlink()


if __name__ == "__main__":
    cleanup()
    with shelve.open(NAME) as db:
        db["todo"] = ["write tests", "review PR"]
        db["meta"] = {"owner": "me", "version": 2}
    with shelve.open(NAME, flag="r") as db:
        for key in sorted(db):
            print(key, "=>", db[key])
    cleanup()
    print("left behind:", [p for p in os.listdir(".") if p.startswith(NAME)])
