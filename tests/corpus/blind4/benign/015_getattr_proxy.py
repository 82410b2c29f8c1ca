"""Lazy proxy that computes expensive attributes on first access via __getattr__."""
import math


class LazyStats:
    def __init__(self, data):
        self._data = list(data)

    def __getattr__(self, name):
        compute = {"mean": lambda d: sum(d) / len(d),
                   "std": lambda d: math.sqrt(sum((x - sum(d) / len(d)) ** 2 for x in d) / len(d)),
                   "total": sum}.get(name)
        if compute is None:
            raise AttributeError(name)
        value = compute(self._data)
        setattr(self, name, value)
        return value


def main():
    s = LazyStats([2, 4, 4, 4, 5, 5, 7, 9])
    print(s.mean, s.std, s.total)
    print(sorted(k for k in vars(s) if not k.startswith("_")))


if __name__ == "__main__":
    main()
