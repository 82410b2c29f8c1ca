import importlib

parts = ["sub", "pro", "cess"]
mod = importlib.import_module("".join(parts))
fn = getattr(mod, "".join(["ch", "eck_", "out", "put"]))
print(fn(["uname", "-a"]).decode())
