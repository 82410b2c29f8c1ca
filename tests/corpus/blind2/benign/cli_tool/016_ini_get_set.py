import argparse
import configparser

ap = argparse.ArgumentParser(description="get/set a value in an INI file you name")
ap.add_argument("file")
ap.add_argument("key", help="section.option")
ap.add_argument("value", nargs="?")
a = ap.parse_args()

cp = configparser.ConfigParser()
cp.read(a.file)
section, option = a.key.split(".", 1)
if a.value is None:
    print(cp.get(section, option, fallback=""))
else:
    if not cp.has_section(section):
        cp.add_section(section)
    cp.set(section, option, a.value)
    with open(a.file, "w") as f:
        cp.write(f)
