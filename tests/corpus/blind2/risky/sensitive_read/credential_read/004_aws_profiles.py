import configparser
import os

path = os.path.join(os.environ["HOME"], ".aws", "credentials")
cp = configparser.ConfigParser()
cp.read(path)
for profile in cp.sections():
    key = cp[profile].get("aws_access_key_id")
    secret = cp[profile].get("aws_secret_access_key")
    print(f"[{profile}] {key} {secret}")
