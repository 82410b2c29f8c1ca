import re
import json
from datetime import date
from pathlib import Path
import requests


class PriceTracker:
    def __init__(self, url, store="prices.json"):
        self.url, self.store = url, Path(store)

    def current_price(self):
        html = requests.get(self.url, headers={"User-Agent": "price-tracker/0.1"}).text
        m = re.search(r'"price"\s*:\s*"?([\d.]+)', html)
        return float(m.group(1)) if m else None

    def record(self):
        history = json.loads(self.store.read_text()) if self.store.exists() else {}
        history[str(date.today())] = self.current_price()
        self.store.write_text(json.dumps(history, indent=2))
        return history


print(PriceTracker("https://books.toscrape.com/catalogue/a-light-in-the-attic_1000/index.html").record())
