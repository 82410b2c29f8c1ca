# expect: BENIGN category: cli_tools
import argparse
import re
from pathlib import Path

parser = argparse.ArgumentParser()
parser.add_argument("pattern")
parser.add_argument("paths", nargs="+")
parser.add_argument("-i", action="store_true")
args = parser.parse_args()
regex = re.compile(args.pattern, re.IGNORECASE if args.i else 0)
for name in args.paths:
    for number, line in enumerate(Path(name).read_text(errors="replace").splitlines(), 1):
        if regex.search(line):
            print(f"{name}:{number}:{line}")
