# expect: BENIGN category: cli_tools
import csv
import sys

reader = csv.reader(open(sys.argv[1], newline=""))
header = next(reader)
print("| " + " | ".join(header) + " |")
print("|" + "---|" * len(header))
for row in reader:
    print("| " + " | ".join(row) + " |")
