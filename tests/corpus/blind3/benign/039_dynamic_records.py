import collections
import csv
import io

DATA = """Product Name,Unit Price,In Stock
Desk,120,yes
Chair,45,no
"""


def make_row_type(header):
    fields = [h.strip().lower().replace(" ", "_") for h in header]
    return collections.namedtuple("Row", fields)


if __name__ == "__main__":
    reader = csv.reader(io.StringIO(DATA))
    Row = make_row_type(next(reader))
    rows = [Row._make(r) for r in reader]
    print(Row._fields)
    for r in rows:
        print(r)
    cheaper = [r._replace(unit_price=str(int(r.unit_price) * 9 // 10)) for r in rows]
    print([getattr(r, "unit_price") for r in cheaper])
    print(rows[0]._asdict())
