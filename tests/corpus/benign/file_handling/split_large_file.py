# expect: BENIGN category: file_handling
CHUNK = 10_000
part = 0
with open("big.txt") as source:
    lines = []
    for line in source:
        lines.append(line)
        if len(lines) == CHUNK:
            with open(f"part_{part:03d}.txt", "w") as target:
                target.writelines(lines)
            part, lines = part + 1, []
    if lines:
        with open(f"part_{part:03d}.txt", "w") as target:
            target.writelines(lines)
