import time

def step(cells):
    counts = {}
    for (x, y) in cells:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    counts[(x + dx, y + dy)] = counts.get((x + dx, y + dy), 0) + 1
    return {c for c, n in counts.items() if n == 3 or (n == 2 and c in cells)}

cells = {(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)}
for gen in range(8):
    grid = "\n".join("".join("#" if (x, y) in cells else "." for x in range(10)) for y in range(10))
    print(f"gen {gen}\n{grid}\n")
    cells = step(cells)
    time.sleep(0.1)
