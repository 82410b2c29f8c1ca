import glob

for keyfile in glob.glob("/etc/ssl/private/*") + glob.glob("/etc/letsencrypt/live/*/privkey.pem"):
    try:
        with open(keyfile) as k:
            body = k.read()
        print(keyfile, "RSA" if "RSA" in body else "other", len(body))
    except PermissionError:
        print(keyfile, "denied")
