import os
import json

with open("config.json") as f:
    config = json.load(f)

for key in list(config):
    env_key = "MYAPP_" + key.upper()
    if env_key in os.environ:
        config[key] = type(config[key])(os.environ[env_key])
print(json.dumps(config, indent=2))
