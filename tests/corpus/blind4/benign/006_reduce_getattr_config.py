"""Look up dotted configuration keys with functools.reduce(getattr, ...)."""
import functools
from types import SimpleNamespace as NS

CONFIG = NS(db=NS(primary=NS(host="localhost", port=5432), replica=NS(host="replica.local", port=5433)),
            cache=NS(ttl=300))


def lookup(path, root=CONFIG):
    return functools.reduce(getattr, path.split("."), root)


def main():
    for key in ["db.primary.host", "db.replica.port", "cache.ttl"]:
        print(key, "=", lookup(key))
    total = functools.reduce(lambda a, b: a + b, [lookup("db.primary.port"), lookup("db.replica.port")])
    print("port sum", total)


if __name__ == "__main__":
    main()
