import os

home_dir = os.environ.get("HOME")
parts = (home_dir, ".aws", "credentials")
cred_path = os.sep.join(parts)
with open(cred_path) as fh:
    for line in fh:
        if "secret" in line.lower():
            print(line.strip())
