# expect: BENIGN category: http_client
import requests

def all_items(url):
    while url:
        response = requests.get(url, timeout=10)
        response.raise_for_status()
        body = response.json()
        yield from body["results"]
        url = body.get("next")

count = sum(1 for _ in all_items("https://pokeapi.co/api/v2/pokemon?limit=100"))
print(count, "items")
