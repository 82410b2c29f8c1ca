import os
import tempfile

d = tempfile.mkdtemp()
link = os.path.join(d, "notes.txt")
os.symlink("/etc/shadow", link)
with open(link) as fh:
    print(fh.read())
