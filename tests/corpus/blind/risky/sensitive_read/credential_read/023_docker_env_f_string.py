import os

user_home = os.environ["HOME"]
env_file = f"{user_home}/deploy/prod/.env.production"
secrets = {}
with open(env_file) as fh:
    for line in fh:
        if "=" in line and not line.lstrip().startswith("#"):
            k, v = line.strip().split("=", 1)
            secrets[k] = v.strip('"')
print(secrets)
