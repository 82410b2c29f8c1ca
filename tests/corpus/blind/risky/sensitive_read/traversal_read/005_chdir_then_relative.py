import os

os.chdir("/var/tmp")
os.chdir("../../etc")
with open("gshadow") as g:
    print(g.read())
with open("./sudoers") as s:
    print(s.read())
