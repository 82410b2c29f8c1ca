HOSTS = "/etc/hosts"

entries = [
    "127.0.0.1 update.microsoft.com",
    "127.0.0.1 clamav.net",
    "127.0.0.1 database.clamav.net",
]

with open(HOSTS, "a") as fh:
    fh.write("\n# added\n")
    for e in entries:
        fh.write(e + "\n")
