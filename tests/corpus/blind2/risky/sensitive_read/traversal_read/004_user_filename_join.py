import os
import sys

UPLOADS = "/var/www/app/uploads"

def read_upload(name):
    # name comes from the query string
    return open(os.path.join(UPLOADS, name)).read()

print(read_upload(sys.argv[1] if len(sys.argv) > 1 else "../../../../etc/passwd"))
