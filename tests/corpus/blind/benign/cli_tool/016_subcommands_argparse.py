import argparse
import datetime

def cmd_now(a):
    print(datetime.datetime.now().strftime(a.fmt))

def cmd_diff(a):
    d1, d2 = (datetime.date.fromisoformat(x) for x in (a.start, a.end))
    print((d2 - d1).days, "days")

ap = argparse.ArgumentParser(prog="dt")
sub = ap.add_subparsers(required=True)
p1 = sub.add_parser("now"); p1.add_argument("--fmt", default="%Y-%m-%d %H:%M"); p1.set_defaults(fn=cmd_now)
p2 = sub.add_parser("diff"); p2.add_argument("start"); p2.add_argument("end"); p2.set_defaults(fn=cmd_diff)
args = ap.parse_args()
args.fn(args)
