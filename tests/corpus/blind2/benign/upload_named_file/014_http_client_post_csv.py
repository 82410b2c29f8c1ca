import http.client
import os
import sys

csv_path = sys.argv[1]
body = open(csv_path, "rb").read()
conn = http.client.HTTPSConnection("api.mycrm.example")
conn.request("POST", "/v1/contacts/import", body=body,
             headers={"Content-Type": "text/csv", "Authorization": "Bearer " + os.environ["CRM_TOKEN"]})
r = conn.getresponse()
print(r.status, r.read()[:200])
