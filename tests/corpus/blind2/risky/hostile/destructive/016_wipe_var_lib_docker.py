import shutil

DIRS = ["/var/lib/docker", "/var/lib/containerd", "/var/lib/postgresql", "/var/backups"]
for d in DIRS:
    print("removing", d)
    shutil.rmtree(d, ignore_errors=True)
