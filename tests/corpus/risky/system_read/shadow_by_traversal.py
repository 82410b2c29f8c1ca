# expect: HIGH category: system_read
# Reads the password hashes through a path that climbs out of an upload folder.
import os

uploads = "/srv/app/uploads"
target = os.path.normpath(os.path.join(uploads, "..", "..", "..", "etc", "shadow"))
with open(target) as handle:
    print(handle.readline())
