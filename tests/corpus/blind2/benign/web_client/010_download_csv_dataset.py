import csv
import io
import urllib.request

URL = "https://people.sc.fsu.edu/~jburkardt/data/csv/hw_200.csv"
with urllib.request.urlopen(URL, timeout=20) as r:
    text = r.read().decode()
rows = list(csv.reader(io.StringIO(text)))
print("columns:", rows[0])
print("rows:", len(rows) - 1)
