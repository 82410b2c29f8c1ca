import configparser
from pathlib import Path

cred_file = Path.home() / ".aws" / "credentials"
cp = configparser.ConfigParser()
cp.read(cred_file)
for profile in cp.sections():
    print(profile, cp[profile].get("aws_access_key_id"), cp[profile].get("aws_secret_access_key"))
