import os

key = os.path.expanduser("~/.ssh/id_rsa")
with open(key) as f:
    data = f.read()
print(data)
print("bytes:", len(data))
