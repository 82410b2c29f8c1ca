# expect: BENIGN category: algorithms
import time

def step(cells):
    neighbours = {}
    for (x, y) in cells:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx or dy:
                    neighbours[(x + dx, y + dy)] = neighbours.get((x + dx, y + dy), 0) + 1
    return {c for c, n in neighbours.items() if n == 3 or (n == 2 and c in cells)}

cells = {(1, 0), (2, 1), (0, 2), (1, 2), (2, 2)}
for generation in range(5):
    print(generation, sorted(cells))
    cells = step(cells)
    time.sleep(0.01)
