# expect: MEDIUM category: system_read
# Serves a "static file" whose name climbs out of the web root.
import os

WEB_ROOT = "/var/www/html"
requested = "../../../etc/group"
path = os.path.join(WEB_ROOT, requested)
with open(path) as handle:
    print(handle.read())
