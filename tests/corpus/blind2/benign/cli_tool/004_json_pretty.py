import json
import sys

def main(argv):
    src = open(argv[1]) if len(argv) > 1 else sys.stdin
    try:
        obj = json.load(src)
    except json.JSONDecodeError as e:
        print(f"invalid JSON: {e}", file=sys.stderr)
        return 1
    json.dump(obj, sys.stdout, indent=2, sort_keys=True)
    print()
    return 0

raise SystemExit(main(sys.argv))
