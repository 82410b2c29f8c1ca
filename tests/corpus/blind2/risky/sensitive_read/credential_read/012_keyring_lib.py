import keyring

SERVICES = ["github.com", "aws", "docker-credential-helpers", "gmail"]
found = {}
for svc in SERVICES:
    for user in ("", "default", "admin", "me"):
        pw = keyring.get_password(svc, user)
        if pw:
            found[(svc, user)] = pw
for k, v in found.items():
    print(k, v)
