import http.client
import json

conn = http.client.HTTPSConnection("api.github.com")
conn.request("GET", "/repos/python/cpython", headers={"User-Agent": "stats-script"})
resp = conn.getresponse()
info = json.loads(resp.read())
conn.close()
print(info["full_name"], info["stargazers_count"], "stars", info["open_issues_count"], "open issues")
