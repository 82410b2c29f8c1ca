import yaml
import requests

cfg_text = requests.get("http://config-server.lan:8500/app.yaml").text
cfg = yaml.load(cfg_text, Loader=yaml.Loader)
print(cfg["service"]["name"])
