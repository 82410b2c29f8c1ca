import sys

# parse a colon-separated export the user gives us (e.g. users.txt from HR tool)
fields = ["login", "full_name", "team", "email"]
for line in open(sys.argv[1], encoding="utf-8"):
    parts = line.rstrip("\n").split(":")
    if len(parts) == len(fields):
        rec = dict(zip(fields, parts))
        print(f"{rec['login']:12} {rec['team']:10} {rec['email']}")
