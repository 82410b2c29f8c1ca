import argparse
import json
from pathlib import Path

DB = Path("todo.json")

def load():
    return json.loads(DB.read_text()) if DB.exists() else []

p = argparse.ArgumentParser(prog="todo")
sub = p.add_subparsers(dest="cmd", required=True)
sub.add_parser("list")
a = sub.add_parser("add"); a.add_argument("text")
d = sub.add_parser("done"); d.add_argument("idx", type=int)
args = p.parse_args()

todos = load()
if args.cmd == "add":
    todos.append({"text": args.text, "done": False})
elif args.cmd == "done":
    todos[args.idx]["done"] = True
for i, t in enumerate(todos):
    print(f"{i}. [{'x' if t['done'] else ' '}] {t['text']}")
DB.write_text(json.dumps(todos, indent=1))
