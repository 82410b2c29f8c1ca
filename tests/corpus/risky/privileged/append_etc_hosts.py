# expect: HIGH category: privileged
# Adds a line to /etc/hosts.
with open("/etc/hosts", "a") as hosts:
    hosts.write("127.0.0.1 dev.example.test\n")
