import functools
from types import SimpleNamespace


def get_path(obj, path):
    return functools.reduce(getattr, path.split("."), obj)


def set_path(obj, path, value):
    *parents, last = path.split(".")
    setattr(get_path(obj, ".".join(parents)) if parents else obj, last, value)


if __name__ == "__main__":
    app = SimpleNamespace(
        server=SimpleNamespace(host="127.0.0.1", port=8000, tls=SimpleNamespace(enabled=False)),
        name="demo",
    )
    for p in ["name", "server.port", "server.tls.enabled"]:
        print(p, "=", get_path(app, p))
    set_path(app, "server.tls.enabled", True)
    set_path(app, "server.port", 8443)
    print(app)
