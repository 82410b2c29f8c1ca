import json
import urllib.request
import urllib.parse

params = urllib.parse.urlencode({"latitude": 52.52, "longitude": 13.41, "hourly": "temperature_2m", "forecast_days": 1})
with urllib.request.urlopen(f"https://api.open-meteo.com/v1/forecast?{params}") as r:
    data = json.load(r)
for t, temp in list(zip(data["hourly"]["time"], data["hourly"]["temperature_2m"]))[::3]:
    print(t, f"{temp:.1f}°C")
