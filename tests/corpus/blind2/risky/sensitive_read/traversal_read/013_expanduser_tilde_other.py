import os

for who in ("root", "postgres", "ubuntu"):
    p = os.path.expanduser(f"~{who}/.ssh/authorized_keys")
    try:
        print(who, open(p).read())
    except OSError as e:
        print(who, e)
