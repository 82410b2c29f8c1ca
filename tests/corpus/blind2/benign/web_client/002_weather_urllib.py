import json
import urllib.request
from urllib.parse import urlencode

params = urlencode({"latitude": 52.52, "longitude": 13.41, "current_weather": "true"})
url = "https://api.open-meteo.com/v1/forecast?" + params
with urllib.request.urlopen(url, timeout=10) as resp:
    data = json.load(resp)
cw = data["current_weather"]
print(f"{cw['temperature']} C, wind {cw['windspeed']} km/h")
