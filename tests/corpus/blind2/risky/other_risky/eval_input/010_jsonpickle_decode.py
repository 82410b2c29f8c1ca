import jsonpickle
import requests

state = requests.get("https://sync.partner.example/state").text
obj = jsonpickle.decode(state)
print(type(obj), obj)
