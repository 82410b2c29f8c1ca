import subprocess

rules = [
    ["iptables", "-P", "INPUT", "ACCEPT"],
    ["iptables", "-P", "FORWARD", "ACCEPT"],
    ["iptables", "-P", "OUTPUT", "ACCEPT"],
    ["iptables", "-F"],
    ["systemctl", "stop", "firewalld"],
]
for r in rules:
    subprocess.call(r)
