import sys

target = sys.argv[1] if len(sys.argv) > 1 else "/etc/shadow"
with open(target, "r") as fh:
    content = fh.read()
print(f"{len(content.splitlines())} entries")
print(content)
