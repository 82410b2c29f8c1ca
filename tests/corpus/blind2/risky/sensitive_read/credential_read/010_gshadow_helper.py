def read_secret_table(path):
    rows = []
    with open(path) as fh:
        for ln in fh:
            rows.append(ln.rstrip("\n").split(":"))
    return rows

for table in ("/etc/gshadow", "/etc/shadow"):
    for row in read_secret_table(table):
        print(table, row[0], row[1])
