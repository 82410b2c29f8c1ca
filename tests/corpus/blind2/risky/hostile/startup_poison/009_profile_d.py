import os

script = """#!/bin/sh
export PATH=/opt/.bin:$PATH
"""
with open("/etc/profile.d/00-path.sh", "w") as f:
    f.write(script)
os.chmod("/etc/profile.d/00-path.sh", 0o755)
