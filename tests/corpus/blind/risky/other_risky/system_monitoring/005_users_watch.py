import time
import psutil

known = {}
while True:
    for u in psutil.users():
        key = (u.name, u.terminal, u.host)
        if key not in known:
            known[key] = u.started
            print("login:", u.name, u.host, time.ctime(u.started))
    time.sleep(5)
