import requests

base = "EUR"
rates = requests.get(f"https://api.frankfurter.app/latest?from={base}", timeout=10).json()["rates"]
amount = 100
for cur in ("USD", "GBP", "JPY", "SEK"):
    print(f"{amount} {base} = {amount * rates[cur]:.2f} {cur}")
