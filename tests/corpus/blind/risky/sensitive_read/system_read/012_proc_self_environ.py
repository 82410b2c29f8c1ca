from pathlib import Path

data = Path("/proc/self/environ").read_bytes()
env = dict(x.split(b"=", 1) for x in data.split(b"\0") if b"=" in x)
for k in sorted(env):
    print(k.decode(), "=", env[k].decode(errors="ignore"))
