import sys

def tracebacks(path):
    block = []
    for line in open(path):
        if line.startswith("Traceback"):
            block = [line]
        elif block:
            block.append(line)
            if not line.startswith((" ", "\t")):
                yield "".join(block)
                block = []

for tb in tracebacks(sys.argv[1]):
    print(tb.splitlines()[-1])
