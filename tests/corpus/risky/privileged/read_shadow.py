# expect: HIGH category: privileged
# Counts accounts that have a password, from /etc/shadow.
with open("/etc/shadow") as shadow:
    count = sum(1 for line in shadow if line.split(":")[1] not in ("*", "!", ""))
print(count)
