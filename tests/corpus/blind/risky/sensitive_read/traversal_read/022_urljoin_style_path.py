import posixpath

base = "/home/app/public"
rel = "assets/../../../../home/alice/.ssh/id_ed25519"
target = posixpath.normpath(posixpath.join(base, rel))
with open(target) as fh:
    print(target)
    print(fh.read())
