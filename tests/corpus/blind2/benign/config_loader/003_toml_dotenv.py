import os
import tomllib

with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
print(project["name"], project.get("version"))

# load ./.env for local dev
if os.path.exists(".env"):
    for line in open(".env"):
        if "=" in line and not line.startswith("#"):
            k, v = line.strip().split("=", 1)
            os.environ.setdefault(k, v)
print("DATABASE_URL set:", "DATABASE_URL" in os.environ)
