import tempfile
import csv

with tempfile.SpooledTemporaryFile(max_size=1024 * 1024, mode="w+", newline="") as buf:
    w = csv.writer(buf)
    for i in range(1000):
        w.writerow([i, i ** 2])
    buf.seek(0)
    total = sum(int(row[1]) for row in csv.reader(buf))
print(total)
