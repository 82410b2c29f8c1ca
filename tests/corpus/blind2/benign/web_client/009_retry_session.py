import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

session = requests.Session()
retry = Retry(total=5, backoff_factor=0.5, status_forcelist=[502, 503, 504])
session.mount("https://", HTTPAdapter(max_retries=retry))

resp = session.get("https://api.exchangerate.host/latest", params={"base": "EUR"}, timeout=10)
rates = resp.json().get("rates", {})
for cur in ("USD", "GBP", "JPY"):
    print(cur, rates.get(cur))
