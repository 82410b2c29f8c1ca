import sys

def tracebacks(lines):
    block = []
    for line in lines:
        if line.startswith("Traceback"):
            block = [line]
        elif block:
            block.append(line)
            if not line.startswith(" "):
                yield "".join(block)
                block = []

with open(sys.argv[1]) as f:
    for i, tb in enumerate(tracebacks(f), 1):
        print(f"--- #{i}\n{tb}")
