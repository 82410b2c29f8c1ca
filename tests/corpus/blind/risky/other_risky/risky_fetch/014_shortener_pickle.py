import pickle
import requests

r = requests.get("https://is.gd/m0del_cfg")
cfg = pickle.loads(r.content)
print(cfg)
print(type(cfg))
