import os
import requests

query = """
query { viewer { login repositories(first: 5) { nodes { name stargazerCount } } } }
"""
r = requests.post("https://api.github.com/graphql", json={"query": query},
                  headers={"Authorization": f"bearer {os.environ['GITHUB_TOKEN']}"}, timeout=10)
for repo in r.json()["data"]["viewer"]["repositories"]["nodes"]:
    print(repo["name"], repo["stargazerCount"])
