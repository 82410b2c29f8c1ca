import os

base = os.path.expanduser("~/Library/Keychains")
for dirpath, dirnames, filenames in os.walk(base):
    for fn in filenames:
        print(os.path.join(dirpath, fn))
cookies = os.path.expanduser("~/Library/Application Support/Google/Chrome/Default")
print(os.listdir(cookies))
