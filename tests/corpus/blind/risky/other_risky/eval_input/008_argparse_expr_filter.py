import argparse
import csv

ap = argparse.ArgumentParser()
ap.add_argument("csvfile")
ap.add_argument("--where", default="True", help="python expression over row")
a = ap.parse_args()

with open(a.csvfile) as f:
    for row in csv.DictReader(f):
        if eval(a.where, {}, dict(row)):
            print(row)
