"""Derive a command-line parser from function signatures with inspect."""
import argparse
import inspect


def resize(width: int, height: int, keep_ratio: bool = False):
    """Resize an image (demo)."""
    return f"resize to {width}x{height} keep_ratio={keep_ratio}"


def rotate(angle: float = 90.0):
    """Rotate an image (demo)."""
    return f"rotate by {angle}"


def build_parser(*funcs):
    parser = argparse.ArgumentParser(prog="imgtool")
    sub = parser.add_subparsers(dest="cmd", required=True)
    for fn in funcs:
        p = sub.add_parser(fn.__name__, help=inspect.getdoc(fn))
        for name, param in inspect.signature(fn).parameters.items():
            if param.annotation is bool:
                p.add_argument("--" + name, action="store_true")
            elif param.default is inspect.Parameter.empty:
                p.add_argument(name, type=param.annotation)
            else:
                p.add_argument("--" + name, type=param.annotation, default=param.default)
        p.set_defaults(func=fn)
    return parser


def main():
    parser = build_parser(resize, rotate)
    for argv in (["resize", "640", "480", "--keep_ratio"], ["rotate", "--angle", "45"]):
        ns = vars(parser.parse_args(argv))
        fn = ns.pop("func")
        ns.pop("cmd")
        print(fn(**ns))


if __name__ == "__main__":
    main()
