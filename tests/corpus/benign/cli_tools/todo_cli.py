# expect: BENIGN category: cli_tools
import argparse
import json
from pathlib import Path

STORE = Path("todo.json")

def load():
    return json.loads(STORE.read_text()) if STORE.exists() else []

parser = argparse.ArgumentParser(description="a tiny to-do list")
sub = parser.add_subparsers(dest="command", required=True)
sub.add_parser("list")
add = sub.add_parser("add")
add.add_argument("text")
done = sub.add_parser("done")
done.add_argument("index", type=int)
args = parser.parse_args()

items = load()
if args.command == "add":
    items.append({"text": args.text, "done": False})
elif args.command == "done":
    items[args.index]["done"] = True
for i, item in enumerate(items):
    print(i, "[x]" if item["done"] else "[ ]", item["text"])
STORE.write_text(json.dumps(items, indent=2))
