import os

docroot = os.environ.get("DOCROOT", "/var/www/html")
p = os.path.abspath(os.path.join(docroot, os.pardir, os.pardir, os.pardir, "etc", "shadow"))
print("reading", p)
with open(p) as fh:
    print(fh.read())
