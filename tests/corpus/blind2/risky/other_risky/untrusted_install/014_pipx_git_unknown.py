import subprocess

tools = [
    "git+https://gitlab.com/randomdev1999/pwn-helpers.git",
    "git+ssh://git@bitbucket.org/x0r/netutils.git",
]
for t in tools:
    subprocess.run(["pipx", "install", t])
