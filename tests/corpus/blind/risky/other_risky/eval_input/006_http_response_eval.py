import requests

r = requests.get("https://api.example-rules.com/rules/current")
for rule in r.json()["rules"]:
    condition = rule["condition"]
    if eval(condition, {"x": 10, "y": 20}):
        print("match:", rule["name"])
