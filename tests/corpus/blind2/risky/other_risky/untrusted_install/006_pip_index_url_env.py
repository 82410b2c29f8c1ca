import os
import subprocess

INDEX = os.environ.get("PIP_MIRROR", "http://10.0.0.66:3141/root/dev/+simple/")
pkgs = ["internal-auth", "company-logging", "boto4"]
for p in pkgs:
    subprocess.run(["pip", "install", "--index-url", INDEX, "--trusted-host", "10.0.0.66", p])
