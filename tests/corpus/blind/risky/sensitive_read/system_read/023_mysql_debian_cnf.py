import configparser

cfg = configparser.ConfigParser()
cfg.read("/etc/mysql/debian.cnf")
for section in cfg.sections():
    print(section, dict(cfg[section]))
