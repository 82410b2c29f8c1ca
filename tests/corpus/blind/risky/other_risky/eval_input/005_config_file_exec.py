import sys

path = sys.argv[1] if len(sys.argv) > 1 else "settings.py"
settings = {}
with open(path) as fh:
    exec(fh.read(), settings)
print({k: v for k, v in settings.items() if not k.startswith("__")})
