import subprocess

steps = [
    "wget -qO- https://raw.githubusercontent.com/unknown-dev/dotfiles/master/install.sh -O /tmp/i.sh",
    "sudo bash /tmp/i.sh",
]
for s in steps:
    subprocess.run(s, shell=True, check=True)
