import configparser
import sys

cfg = configparser.ConfigParser()
read = cfg.read(["defaults.ini", "local.ini"])
if not read:
    sys.exit("no config found")
db = cfg["database"]
print("host:", db.get("host", "localhost"))
print("port:", db.getint("port", 5432))
print("debug:", cfg.getboolean("app", "debug", fallback=False))
