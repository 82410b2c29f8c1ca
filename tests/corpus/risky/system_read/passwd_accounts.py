# expect: MEDIUM category: system_read
# Lists the accounts that have a login shell, from /etc/passwd.
with open("/etc/passwd") as handle:
    for line in handle:
        name, _, uid, _, _, home, shell = line.strip().split(":")
        if not shell.endswith(("nologin", "false")):
            print(name, uid, home)
