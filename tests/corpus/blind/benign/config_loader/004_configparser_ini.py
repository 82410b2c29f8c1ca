import configparser

cp = configparser.ConfigParser()
cp.read(["defaults.ini", "local.ini"])
db = cp["database"]
print(db.get("host", "localhost"), db.getint("port", 5432), db.get("name", "app"))
print("log level:", cp.get("logging", "level", fallback="INFO"))
