# expect: BENIGN category: http_client
import os

import requests

token = os.environ["UPLOAD_TOKEN"]
with open("report.pdf", "rb") as handle:
    response = requests.post(
        "https://files.example.com/api/upload",
        files={"file": ("report.pdf", handle, "application/pdf")},
        headers={"Authorization": f"Bearer {token}"},
        timeout=60,
    )
print(response.status_code)
