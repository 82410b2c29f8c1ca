import tempfile
import subprocess

with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as tmp:
    tmp.write("edit me\n")
    name = tmp.name
subprocess.run(["wc", "-l", name])
import os
os.remove(name)
