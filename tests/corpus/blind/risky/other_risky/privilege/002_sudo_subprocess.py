import subprocess

subprocess.run(["sudo", "apt-get", "update"])
subprocess.run(["sudo", "apt-get", "install", "-y", "nmap"])
print("installed nmap")
