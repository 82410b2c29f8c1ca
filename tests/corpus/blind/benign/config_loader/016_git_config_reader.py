import configparser
import os

path = os.path.join(os.getcwd(), ".git", "config")
cp = configparser.ConfigParser(strict=False)
cp.read(path)
for section in cp.sections():
    if section.startswith('remote'):
        print(section, cp[section].get("url"))
