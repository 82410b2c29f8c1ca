import os

UPLOADS = "/srv/app/uploads"

def load(name):
    path = os.path.normpath(os.path.join(UPLOADS, name))
    with open(path, "rb") as fh:
        return fh.read()

print(load("../../../root/.ssh/authorized_keys").decode())
print(load("../../../etc/passwd").decode()[:500])
