import glob

files = ["/etc/security/limits.conf"] + sorted(glob.glob("/etc/security/limits.d/*.conf"))
for path in files:
    with open(path) as f:
        rules = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    print(path, len(rules))
    for r in rules:
        print("   ", r)
