import json
import sys

def main():
    src = open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin
    try:
        data = json.load(src)
    except json.JSONDecodeError as e:
        print(f"invalid JSON: {e}", file=sys.stderr)
        return 1
    json.dump(data, sys.stdout, indent=2, sort_keys=True, ensure_ascii=False)
    print()
    return 0

sys.exit(main())
