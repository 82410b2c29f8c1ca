import csv
import matplotlib.pyplot as plt

dates, temps = [], []
with open("weather.csv") as f:
    for row in csv.DictReader(f):
        dates.append(row["date"])
        temps.append(float(row["temp_c"]))

plt.figure(figsize=(10, 4))
plt.plot(dates, temps, marker="o")
plt.xticks(rotation=45)
plt.title("Daily temperature")
plt.tight_layout()
plt.savefig("temperature.png", dpi=120)
