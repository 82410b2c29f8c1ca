users = []
with open("/etc/passwd") as f:
    for line in f:
        parts = line.strip().split(":")
        if int(parts[2]) >= 1000:
            users.append((parts[0], parts[5], parts[6]))
for u in users:
    print(*u, sep="\t")
