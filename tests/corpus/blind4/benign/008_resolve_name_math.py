"""Resolve math functions named in a small config with pkgutil.resolve_name."""
import pkgutil

CONFIG = {"root": "math:sqrt", "log": "math:log10", "round": "builtins:round", "mean": "statistics:mean"}


def main():
    funcs = {k: pkgutil.resolve_name(v) for k, v in CONFIG.items()}
    print("root", funcs["root"](81))
    print("log", funcs["log"](1000))
    print("round", funcs["round"](3.14159, 2))
    print("mean", funcs["mean"]([1, 2, 3, 4]))


if __name__ == "__main__":
    main()
