import sys
import openpyxl
import csv

wb = openpyxl.load_workbook(sys.argv[1], read_only=True, data_only=True)
for ws in wb.worksheets:
    out = f"{ws.title}.csv"
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        for row in ws.iter_rows(values_only=True):
            w.writerow(row)
    print("wrote", out)
