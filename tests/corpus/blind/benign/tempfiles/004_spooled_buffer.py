import tempfile
import csv

with tempfile.SpooledTemporaryFile(max_size=1 << 20, mode="w+", newline="") as buf:
    w = csv.writer(buf)
    for i in range(1000):
        w.writerow([i, i * i])
    buf.seek(0)
    rows = list(csv.reader(buf))
print(len(rows), rows[-1])
