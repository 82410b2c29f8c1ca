# expect: BENIGN category: file_handling
import configparser

config = configparser.ConfigParser()
config.read("settings.ini")
config.setdefault("server", {})
config["server"]["port"] = config["server"].get("port", "8080")
with open("settings.ini", "w") as handle:
    config.write(handle)
print(dict(config["server"]))
