import requests

user = "psf"
r = requests.get(f"https://api.github.com/users/{user}/repos", params={"per_page": 100, "sort": "updated"}, timeout=10)
r.raise_for_status()
for repo in sorted(r.json(), key=lambda x: -x["stargazers_count"])[:10]:
    print(f"{repo['stargazers_count']:>6} ★ {repo['name']}")
