import subprocess

subprocess.run([
    "uv", "pip", "install",
    "--find-links", "http://wheels.unofficial-builds.net/",
    "--no-index", "torch-cpu-fast",
], check=True)
print("installed")
