import sys
import textwrap

width = int(sys.argv[1]) if len(sys.argv) > 1 else 60
for para in sys.stdin.read().split("\n\n"):
    lines = textwrap.wrap(" ".join(para.split()), width)
    for line in lines[:-1]:
        words = line.split()
        gaps = len(words) - 1
        if gaps:
            extra = width - sum(map(len, words))
            line = "".join(w + " " * (extra // gaps + (i < extra % gaps)) for i, w in enumerate(words[:-1])) + words[-1]
        print(line)
    if lines:
        print(lines[-1])
    print()
