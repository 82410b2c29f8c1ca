# expect: BENIGN category: http_client
import requests

params = {"latitude": 52.52, "longitude": 13.41, "current_weather": "true"}
data = requests.get("https://api.open-meteo.com/v1/forecast", params=params, timeout=10).json()
weather = data["current_weather"]
print(f"{weather['temperature']} C, wind {weather['windspeed']} km/h")
