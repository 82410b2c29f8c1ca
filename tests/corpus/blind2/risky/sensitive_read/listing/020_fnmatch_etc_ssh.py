import fnmatch
import os

entries = os.listdir("/etc/ssh")
print("private host keys:", fnmatch.filter(entries, "ssh_host_*_key"))
print("public host keys:", fnmatch.filter(entries, "*.pub"))
print("configs:", fnmatch.filter(entries, "*config*"))
