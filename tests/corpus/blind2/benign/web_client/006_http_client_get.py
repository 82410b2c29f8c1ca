import http.client
import json

conn = http.client.HTTPSConnection("api.github.com", timeout=10)
conn.request("GET", "/repos/python/cpython", headers={"User-Agent": "stars-checker"})
resp = conn.getresponse()
info = json.loads(resp.read())
print(info["full_name"], "stars:", info["stargazers_count"])
conn.close()
