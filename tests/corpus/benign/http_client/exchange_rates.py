# expect: BENIGN category: http_client
import json
import urllib.request

with urllib.request.urlopen("https://api.frankfurter.app/latest?from=EUR", timeout=10) as response:
    rates = json.loads(response.read())["rates"]
for currency in ("USD", "GBP", "JPY"):
    print(currency, rates.get(currency))
