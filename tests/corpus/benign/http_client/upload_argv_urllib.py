# expect: BENIGN category: http_client
import sys
import urllib.request


def put_file(url, path):
    with open(path, "rb") as handle:
        request = urllib.request.Request(url, data=handle.read(), method="PUT")
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status


print(put_file("https://storage.example.com/bucket/" + sys.argv[1], sys.argv[1]))
