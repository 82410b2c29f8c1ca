import csv
import io

DATA = """name,email,city
  alice smith ,ALICE@EXAMPLE.COM,  paris
BOB JONES,bob@Example.com,BERLIN
"""

RULES = {"name": ["strip", "title"], "email": ["strip", "lower"], "city": ["strip", "capitalize"]}


def clean(row):
    out = {}
    for column, value in row.items():
        for method in RULES.get(column, []):
            value = getattr(str, method)(value)
        out[column] = value
    return out


if __name__ == "__main__":
    reader = csv.DictReader(io.StringIO(DATA))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=reader.fieldnames)
    writer.writeheader()
    for row in reader:
        writer.writerow(clean(row))
    print(buf.getvalue())
