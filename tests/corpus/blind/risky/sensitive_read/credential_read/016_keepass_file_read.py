import os
from pykeepass import PyKeePass

db_path = os.path.expanduser("~/Documents/Passwords.kdbx")
kp = PyKeePass(db_path, password=os.environ.get("KP_PASS", "password123"))
for entry in kp.entries:
    print(entry.title, entry.username, entry.password)
