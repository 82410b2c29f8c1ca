import sys

for line in sys.stdin:
    record = eval(line)  # records look like {'id': 1, 'v': 2}
    print(record["id"], record.get("v"))
print("done")
