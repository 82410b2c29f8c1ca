import requests
import responses


@responses.activate
def test_weather_client():
    responses.add(responses.GET, "https://api.weather.example/v1/now?city=Oslo",
                  json={"temp": -3}, status=200)
    r = requests.get("https://api.weather.example/v1/now", params={"city": "Oslo"})
    assert r.json()["temp"] == -3
    assert len(responses.calls) == 1
