import os

for user in os.listdir("/home"):
    path = os.path.join("/home", user)
    try:
        print(user, os.listdir(path))
    except PermissionError:
        print(user, "<denied>")
