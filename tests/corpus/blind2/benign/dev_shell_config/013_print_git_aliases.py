import configparser
import os

gitconfig = os.path.join(os.path.expanduser("~"), ".gitconfig")
cp = configparser.RawConfigParser(strict=False)
cp.read(gitconfig)
if cp.has_section("alias"):
    for name, cmd in cp.items("alias"):
        print(f"git {name:10} -> {cmd}")
else:
    print("no git aliases configured")
