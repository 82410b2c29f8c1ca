"""Choose an already-imported stdlib function by configured name via sys.modules."""
import math  # noqa: F401
import statistics  # noqa: F401
import sys

AGGREGATES = {"avg": ("statistics", "fmean"), "max": ("builtins", "max"), "prod": ("math", "prod"),
              "gm": ("statistics", "geometric_mean")}


def aggregate(kind, values):
    mod, name = AGGREGATES[kind]
    return getattr(sys.modules[mod], name)(values)


def main():
    data = [2, 8, 4]
    for kind in AGGREGATES:
        print(kind, round(aggregate(kind, data), 3))


if __name__ == "__main__":
    main()
