import subprocess

cmds = [
    "curl -fsSL http://repo.fastbuilds.io/key.gpg | apt-key add -",
    "add-apt-repository -y 'deb http://repo.fastbuilds.io/ubuntu jammy main'",
    "apt-get install -y fast-tools",
]
for c in cmds:
    subprocess.run(c, shell=True)
