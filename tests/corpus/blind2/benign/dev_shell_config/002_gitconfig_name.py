import configparser
from pathlib import Path

cfg = configparser.ConfigParser()
cfg.read(Path.home() / ".gitconfig")
name = cfg.get("user", "name", fallback="(unset)")
email = cfg.get("user", "email", fallback="(unset)")
print(f"git identity: {name} <{email}>")
