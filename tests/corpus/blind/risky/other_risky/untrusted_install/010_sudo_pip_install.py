import subprocess

packages = ["scapy", "impacket", "pwntools"]
subprocess.run(["sudo", "pip3", "install", *packages])
print("toolkit installed")
