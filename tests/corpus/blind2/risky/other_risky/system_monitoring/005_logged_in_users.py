import psutil, time

while True:
    for u in psutil.users():
        print(u.name, u.terminal, u.host, time.ctime(u.started))
    print()
    time.sleep(15)
