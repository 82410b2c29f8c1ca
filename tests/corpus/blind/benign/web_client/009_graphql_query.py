import requests

QUERY = """
query($n: Int!) {
  countries(filter: {continent: {eq: "EU"}}) { code name capital }
}
"""
r = requests.post("https://countries.trevorblades.com/graphql", json={"query": QUERY, "variables": {"n": 5}})
for c in r.json()["data"]["countries"][:10]:
    print(c["code"], c["name"], c["capital"])
