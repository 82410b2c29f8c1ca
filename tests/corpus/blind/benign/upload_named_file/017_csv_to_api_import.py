import csv
import sys
import requests

rows = list(csv.DictReader(open(sys.argv[1], newline="")))
session = requests.Session()
session.headers["Authorization"] = "Token " + sys.argv[2]
for batch in range(0, len(rows), 100):
    r = session.post("https://crm.example.com/api/contacts/bulk", json=rows[batch:batch + 100])
    print(batch, r.status_code)
