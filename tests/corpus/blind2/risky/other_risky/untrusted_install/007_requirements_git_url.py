import subprocess
import tempfile
import os

reqs = """
git+https://github.com/some-random-user/fastapi-fork@main#egg=fastapi
https://download.example-mirror.top/numpy-1.26.0-cp311-cp311-linux_x86_64.whl
"""
with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    f.write(reqs)
subprocess.run(["pip", "install", "-r", f.name])
os.unlink(f.name)
