# expect: BLOCKED category: disable_security
# Flushes every firewall rule and opens the input chain.
import os

for command in ("iptables -F", "iptables -X", "iptables -P INPUT ACCEPT"):
    os.system(command)
