"""A CSV in, an answer and a chart out: `mai-safety run examples/chart.py --file examples/rain.csv
--output-dir out`. The default sandbox image has the standard library only, so the chart is an SVG
drawn by hand."""

import csv

rows = list(csv.DictReader(open("rain.csv", newline="")))
wettest = max(rows, key=lambda row: int(row["rain_mm"]))
print(f"{len(rows)} cities; the wettest is {wettest['city']} ({wettest['rain_mm']} mm a year)")

top = max(int(row["rain_mm"]) for row in rows)
bars = []
for index, row in enumerate(rows):
    width = 300 * int(row["rain_mm"]) / top
    y = 10 + index * 30
    bars.append(f'<text x="0" y="{y + 15}" font-size="12">{row["city"]}</text>')
    bars.append(f'<rect x="80" y="{y}" width="{width:.0f}" height="20" fill="steelblue"/>')
height = 20 + 30 * len(rows)
with open("chart.svg", "w") as out:
    out.write(f'<svg xmlns="http://www.w3.org/2000/svg" width="400" height="{height}">{"".join(bars)}</svg>\n')
