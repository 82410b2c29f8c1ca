import argparse


def cmd_add(args):
    return sum(args.numbers)


def cmd_greet(args):
    return f"Hello, {args.name}{'!' * args.excited}"


def cmd_stats(args):
    nums = args.numbers
    return {"min": min(nums), "max": max(nums), "mean": sum(nums) / len(nums)}


def build():
    parser = argparse.ArgumentParser(prog="tool")
    sub = parser.add_subparsers(required=True)
    for name, fn in [("add", cmd_add), ("stats", cmd_stats)]:
        p = sub.add_parser(name)
        p.add_argument("numbers", type=float, nargs="+")
        p.set_defaults(func=fn)
    g = sub.add_parser("greet")
    g.add_argument("name")
    g.add_argument("--excited", type=int, default=0)
    g.set_defaults(func=cmd_greet)
    return parser


if __name__ == "__main__":
    parser = build()
    for argv in (["add", "1", "2", "3.5"], ["greet", "Ana", "--excited", "2"], ["stats", "4", "8", "15"]):
        args = parser.parse_args(argv)
        print(argv[0], "->", args.func(args))
