with open("/var/lib/pam/seen") as seen:
    modules = seen.read().split()
print("PAM modules seen:", ", ".join(modules))
with open("/var/lib/pam/auth") as a:
    print(a.read())
