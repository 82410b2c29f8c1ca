import functools
import operator

SALES = [
    {"north": 10, "south": 4},
    {"north": 3, "east": 7},
    {"south": 5, "east": 1, "west": 9},
]


def merge(a, b):
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


if __name__ == "__main__":
    totals = functools.reduce(merge, SALES, {})
    print("totals:", totals)
    print("product of 1..6:", functools.reduce(operator.mul, range(1, 7), 1))
    print("longest region:", functools.reduce(lambda a, b: a if len(a) >= len(b) else b, totals))
    compose = lambda *fs: functools.reduce(lambda f, g: lambda x: g(f(x)), fs)
    print("composed:", compose(str.strip, str.upper, len)("  hello "))
